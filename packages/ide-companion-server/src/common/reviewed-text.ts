import { diffArrays } from 'diff';
import { firstLineBreak, LineTerminator, splitLines, TextLine } from './text-lines';

const BOM = '\uFEFF';

/** Beyond this many lines on either side, the alignment is not tried (see `reviewedText`). */
export const REVIEWED_TEXT_MAX_LINES = 200_000;
/**
 * The alignment gives up beyond this many inserted plus deleted lines, or after this long: Myers' work
 * grows with the product of the lines and the edits, and this runs in the browser when the user accepts.
 */
export const REVIEWED_TEXT_MAX_EDIT_LENGTH = 2_000;
export const REVIEWED_TEXT_TIMEOUT_MS = 500;

export interface ReviewedTextInput {
    /** The text the CLI proposed, raw. */
    readonly proposal: string;
    /** The file's raw text the proposal was shown against; undefined for a new file. */
    readonly original: string | undefined;
    /** The right side's text as Monaco returns it: one EOL, no BOM. */
    readonly shown: string;
}

/**
 * The text to report for a reviewed proposal, byte for byte. Monaco gives the right side one EOL and
 * drops the BOM, so its text alone would rewrite every line ending of a mixed-EOL proposal. Each line
 * of the shown text therefore gets its terminator back from where it came from: a line of the proposal
 * keeps the proposal's, a line a rejected change restored keeps the original's, and only lines the user
 * typed take the editor's EOL. Lines are aligned by content with jsdiff; where equal lines carry
 * different terminators the alignment may pick a neighbour's (best effort: the content is always the
 * shown text). Inputs too large to align get the shown text as it is; an original that cannot be
 * aligned only leaves its lines with the editor's EOL.
 *
 * Monaco strips exactly one leading BOM and never gives it back, so a U+FEFF at the start of the
 * shown text is content (a proposal starting with two of them, or one the user typed), and the BOM is
 * the proposal's.
 */
export function reviewedText({ proposal, original, shown }: ReviewedTextInput): string {
    const bom = proposal.startsWith(BOM) ? BOM : '';
    const proposalText = proposal.slice(bom.length);
    if (normalised(shown) === normalised(proposalText)) {
        return proposal;
    }
    const lines = splitLines(shown);
    const proposed = splitLines(proposalText);
    const sources: Array<TextLine | undefined> = new Array(lines.length).fill(undefined);
    if (lines.length > REVIEWED_TEXT_MAX_LINES || proposed.length > REVIEWED_TEXT_MAX_LINES || !alignTo(proposed, lines, sources)) {
        // What the review reported before change-level review: the editor's, with one EOL.
        return bom + shown;
    }
    if (original !== undefined && sources.includes(undefined)) {
        const originalLines = splitLines(original.startsWith(BOM) ? original.slice(BOM.length) : original);
        if (originalLines.length <= REVIEWED_TEXT_MAX_LINES) {
            alignTo(originalLines, lines, sources);
        }
    }
    const eols = terminators(lines, sources, firstLineBreak(shown) || '\n');
    return bom + lines.map((line, i) => line.content + eols[i]).join('');
}

function normalised(text: string): string {
    return text.replace(/\r\n|\r/g, '\n');
}

/**
 * Records, for each shown line that has no source yet, the `source` line the diff matches it with.
 * False when the diff gave up.
 */
function alignTo(source: readonly TextLine[], shown: readonly TextLine[], sources: Array<TextLine | undefined>): boolean {
    const changes = diffArrays(source.map(line => line.content), shown.map(line => line.content), {
        maxEditLength: REVIEWED_TEXT_MAX_EDIT_LENGTH,
        timeout: REVIEWED_TEXT_TIMEOUT_MS
    });
    if (!changes) {
        return false;
    }
    let inSource = 0;
    let inShown = 0;
    for (const change of changes) {
        if (change.added) {
            inShown += change.count;
        } else if (change.removed) {
            inSource += change.count;
        } else {
            for (let i = 0; i < change.count; i++) {
                sources[inShown + i] ??= source[inSource + i];
            }
            inShown += change.count;
            inSource += change.count;
        }
    }
    return true;
}

function terminators(lines: readonly TextLine[], sources: ReadonlyArray<TextLine | undefined>, eol: LineTerminator): LineTerminator[] {
    const last = lines.length - 1;
    // A line last in its source (no terminator) that is not last any more gets the editor's EOL.
    const result = lines.map((_, i) => i === last ? '' : sources[i]?.eol || eol);
    // A lone CR followed by an empty line ending in LF would read back as one CRLF, losing a line the
    // user sees: that CR becomes a break that cannot fuse. Backwards, so each check sees the final next break.
    for (let i = last - 1; i >= 0; i--) {
        if (result[i] === '\r' && lines[i + 1].content === '' && result[i + 1] === '\n') {
            result[i] = eol === '\r' ? '\r\n' : eol;
        }
    }
    return result;
}
