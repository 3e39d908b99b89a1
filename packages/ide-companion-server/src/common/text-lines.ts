/** A line break as Monaco's text buffer recognises it, or '' after the last line. */
export type LineTerminator = '\r\n' | '\r' | '\n' | '';

/** One line of a text: its content without the break, and the break itself, byte for byte. */
export interface TextLine {
    readonly content: string;
    readonly eol: LineTerminator;
}

/**
 * The lines of `text` as a Monaco model has them: a text ending with a line break has an empty last
 * line, so `'a\n'` is `[{a, '\n'}, {'', ''}]` and the empty text is one empty line.
 */
export function splitLines(text: string): TextLine[] {
    const lines: TextLine[] = [];
    let start = 0;
    // Monaco breaks lines on these three only: U+2028, U+2029 and U+0085 stay inside a line.
    const lineBreak = /\r\n|\r|\n/g;
    for (let found = lineBreak.exec(text); found; found = lineBreak.exec(text)) {
        // The match is one of the alternatives above; the cast only narrows string to them.
        lines.push({ content: text.slice(start, found.index), eol: found[0] as LineTerminator });
        start = found.index + found[0].length;
    }
    lines.push({ content: text.slice(start), eol: '' });
    return lines;
}

/** The first line break of `text`: the EOL of a Monaco model's text, which has one kind only. */
export function firstLineBreak(text: string): LineTerminator {
    const found = /\r\n|\r|\n/.exec(text);
    return found ? found[0] as LineTerminator : '';
}
