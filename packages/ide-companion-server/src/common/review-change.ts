import { diffArrays } from 'diff';
import { splitLines } from './text-lines';

/** Lines `start` (1-based) up to `end` (exclusive); empty when they are equal. */
export interface LineSpan {
    readonly start: number;
    readonly end: number;
}

/** One change of a review diff, as a diff editor shows it. */
export interface ReviewChange {
    /** The lines it replaces on the left (empty: an insertion before `start`). */
    readonly original: LineSpan;
    /** The lines it puts on the right (empty: a deletion before `start`). */
    readonly modified: LineSpan;
    /** The change's content, left and right: identifies it while lines around it move. */
    readonly signature: string;
}

/** The content of a change, left then right: what identifies it while the lines around it move. */
export function changeSignature(originalLines: readonly string[], modifiedLines: readonly string[]): string {
    return `${originalLines.join('\n')}\0${modifiedLines.join('\n')}`;
}

/**
 * Which change a decision made on `line` of one side applies to: the change covering that line, or a
 * deletion (an empty span, which sits between two lines) on either line beside it.
 */
export function changeAtLine(changes: readonly ReviewChange[], line: number, side: 'original' | 'modified' = 'modified'): ReviewChange | undefined {
    return changes.find(change => change[side].start <= line && line < change[side].end)
        ?? changes.find(change => change[side].start === change[side].end && (line === change[side].start || line === change[side].start - 1));
}

/** The first change after `line` (or the last before it) on the right side, without wrapping around. */
export function changeBeside(changes: readonly ReviewChange[], line: number, direction: 'next' | 'previous'): ReviewChange | undefined {
    return direction === 'next'
        ? changes.find(change => change.modified.start > line)
        : [...changes].reverse().find(change => change.modified.start < line);
}

/** Beyond this many lines on either side, no change list is computed (the review still accepts and rejects whole). */
export const REVIEW_CHANGES_MAX_LINES = 200_000;

/**
 * The changes between the left and right side's texts, line by line as a diff editor numbers them (a
 * text ending with a line break has an empty last line), computed with jsdiff for hosts whose diff
 * editor does not hand out its own (the VS Code API). Undefined when the texts are too large to align.
 */
export function computeReviewChanges(original: string, modified: string): ReviewChange[] | undefined {
    const left = splitLines(original).map(line => line.content);
    const right = splitLines(modified).map(line => line.content);
    if (left.length > REVIEW_CHANGES_MAX_LINES || right.length > REVIEW_CHANGES_MAX_LINES) {
        return undefined;
    }
    const parts = diffArrays(left, right);
    const changes: ReviewChange[] = [];
    let originalLine = 1;
    let modifiedLine = 1;
    for (let index = 0; index < parts.length;) {
        if (!parts[index].added && !parts[index].removed) {
            originalLine += parts[index].value.length;
            modifiedLine += parts[index].value.length;
            index++;
            continue;
        }
        // A run of removals and additions between two equal parts is one change.
        const removed: string[] = [];
        const added: string[] = [];
        for (; index < parts.length && (parts[index].added || parts[index].removed); index++) {
            (parts[index].added ? added : removed).push(...parts[index].value);
        }
        changes.push({
            original: { start: originalLine, end: originalLine + removed.length },
            modified: { start: modifiedLine, end: modifiedLine + added.length },
            signature: changeSignature(removed, added)
        });
        originalLine += removed.length;
        modifiedLine += added.length;
    }
    return changes;
}

/** A position in a text, 0-based, as editor APIs take it. */
export interface TextPosition {
    readonly line: number;
    readonly character: number;
}

/** One replacement in the right side's text: what lies between `start` and `end` becomes `text`. */
export interface TextReplacement {
    readonly start: TextPosition;
    readonly end: TextPosition;
    readonly text: string;
}

/**
 * The edit that rejects one change on the right side: its lines become the left side's again, with the
 * right side's line break `eol`, and nothing else moves. For an editor that applies it as an ordinary
 * (undoable) edit, where the diff editor has no revert of its own to call.
 */
export function revertEdit(original: string, modified: string, change: ReviewChange, eol: '\n' | '\r\n'): TextReplacement {
    const lines = splitLines(original).slice(change.original.start - 1, change.original.end - 1).map(line => line.content);
    const right = splitLines(modified);
    const start = change.modified.start - 1;
    const end = change.modified.end - 1;
    const last = right.length - 1;
    if (end <= last) {
        // Whole lines, each with its line break: the line after the change stays where it is.
        return { start: { line: start, character: 0 }, end: { line: end, character: 0 }, text: lines.map(line => line + eol).join('') };
    }
    const endOfText = { line: last, character: right[last].content.length };
    if (start <= last && (lines.length > 0 || start === 0)) {
        // The change reaches the end of the text: so did the lines it replaced.
        return { start: { line: start, character: 0 }, end: endOfText, text: lines.join(eol) };
    }
    if (start <= last) {
        // Lines added at the end of a text with no final line break: the break before them goes too.
        return { start: { line: start - 1, character: right[start - 1].content.length }, end: endOfText, text: '' };
    }
    // Lines deleted at the very end of a text with no final line break go back after its last line.
    return { start: endOfText, end: endOfText, text: lines.map(line => eol + line).join('') };
}
