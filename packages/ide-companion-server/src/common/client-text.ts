/** Longest name or version a client chose for itself (MCP `clientInfo`) that is logged or shown. */
export const MAX_CLIENT_TEXT_LENGTH = 100;

/** Terminal escape sequences, 7- and 8-bit: CSI (colours, cursor moves, erasing) and OSC (window titles, links). */
const ESCAPE_SEQUENCES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** Control and format characters (bidirectional overrides reorder what a reader sees) and lone surrogates. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/**
 * Text a client supplied (its name and version, a Host header, a file path in a refused call), made
 * safe to put in a log line, the "CLI Companion" output channel, the status bar or a report: no line
 * breaks that forge log lines, no escape sequences that rewrite a terminal, no invisible characters,
 * and at most `maxLength` characters (code points) however long the input, cut with an ellipsis.
 */
export function sanitizeClientText(text: string, maxLength = MAX_CLIENT_TEXT_LENGTH): string {
    // Only a bounded head is looked at: a name may be megabytes long.
    const head = text.slice(0, maxLength * 16);
    const clean = head.replace(ESCAPE_SEQUENCES, '').replace(LINE_BREAKS, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
    const characters = Array.from(clean);
    if (characters.length <= maxLength && head.length === text.length) {
        return clean;
    }
    return characters.slice(0, maxLength - 1).join('').trimEnd() + '…';
}
