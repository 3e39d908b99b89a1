import { expect } from 'chai';
import {
    changeAtLine, changeBeside, changeSignature, computeReviewChanges, REVIEW_CHANGES_MAX_LINES, revertEdit, ReviewChange, TextPosition, TextReplacement
} from './review-change';

const NUMBERS = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';

function spans(changes: readonly ReviewChange[] | undefined): string[] {
    return (changes ?? []).map(change => `${change.original.start}-${change.original.end}→${change.modified.start}-${change.modified.end}`);
}

describe('review changes', () => {
    describe('computeReviewChanges', () => {
        it('finds three separate replacements where three lines changed, whatever the proposal\'s line endings', () => {
            const changes = computeReviewChanges(NUMBERS, 'one\r\nTWO\r\nthree\r\nfour\r\nFIVE\r\nsix\r\nseven\r\nEIGHT\r\nnine\r\n');
            expect(spans(changes)).to.deep.equal(['2-3→2-3', '5-6→5-6', '8-9→8-9']);
            expect(changes?.[1].signature).to.equal(changeSignature(['five'], ['FIVE']));
        });

        it('numbers an insertion and a deletion as a diff editor does: an empty span before the line it sits at', () => {
            expect(spans(computeReviewChanges('a\nb\n', 'a\nnew\nb\n')), 'insertion').to.deep.equal(['2-2→2-3']);
            expect(spans(computeReviewChanges('a\nb\nc\n', 'a\nc\n')), 'deletion').to.deep.equal(['2-3→2-2']);
            expect(spans(computeReviewChanges('', 'created\n')), 'a new file').to.deep.equal(['1-1→1-2']);
        });

        it('merges adjacent removals and additions into one change, and finds none in equal texts', () => {
            expect(spans(computeReviewChanges('a\nb\nc\nd\n', 'a\nB\nC\nX\nd\n'))).to.deep.equal(['2-4→2-5']);
            expect(computeReviewChanges(NUMBERS, NUMBERS)).to.deep.equal([]);
        });

        it('gives up on texts too large to align', () => {
            const large = 'x\n'.repeat(REVIEW_CHANGES_MAX_LINES);
            expect(computeReviewChanges(large, 'y\n')).to.equal(undefined);
        });
    });

    describe('changeAtLine', () => {
        const changes = computeReviewChanges('a\nb\nc\nd\ne\n', 'a\nB\nc\ne\n')!;

        it('is the change covering the line, or a deletion on either line beside it', () => {
            expect(spans(changes)).to.deep.equal(['2-3→2-3', '4-5→4-4']);
            expect(changeAtLine(changes, 2), 'on the replaced line').to.equal(changes[0]);
            expect(changeAtLine(changes, 1), 'above the replacement').to.equal(undefined);
            expect(changeAtLine(changes, 3), 'the line above the deletion').to.equal(changes[1]);
            expect(changeAtLine(changes, 4), 'the line below the deletion').to.equal(changes[1]);
            expect(changeAtLine(changes, 4, 'original'), 'the deleted line on the left').to.equal(changes[1]);
        });
    });

    describe('changeBeside', () => {
        const changes = computeReviewChanges(NUMBERS, NUMBERS.replace('two', 'TWO').replace('five', 'FIVE'))!;

        it('is the next change after the line or the previous before it, without wrapping around', () => {
            expect(changeBeside(changes, 1, 'next')).to.equal(changes[0]);
            expect(changeBeside(changes, 2, 'next')).to.equal(changes[1]);
            expect(changeBeside(changes, 5, 'next')).to.equal(undefined);
            expect(changeBeside(changes, 5, 'previous')).to.equal(changes[0]);
            expect(changeBeside(changes, 2, 'previous')).to.equal(undefined);
        });
    });

    describe('revertEdit', () => {
        /** Applies a replacement to a text whose lines break with `eol`. */
        function apply(text: string, { start, end, text: replacement }: TextReplacement, eol: string): string {
            const lines = text.split(eol);
            const offset = (position: TextPosition) => lines.slice(0, position.line).reduce((sum, line) => sum + line.length + eol.length, 0) + position.character;
            return text.slice(0, offset(start)) + replacement + text.slice(offset(end));
        }

        const cases: Array<[string, string, string]> = [
            ['a replacement in the middle', 'a\nb\nc\n', 'a\nB\nc\n'],
            ['an insertion', 'a\nc\n', 'a\nnew\nc\n'],
            ['a deletion', 'a\nb\nc\n', 'a\nc\n'],
            ['a change of the last line, without a final line break', 'a\nb', 'a\nB'],
            ['an insertion at the end, without a final line break', 'a', 'a\nnew'],
            ['a deletion at the very end, without a final line break', 'a\nb\nc', 'a'],
            ['a new file', '', 'created\n'],
            ['an emptied file', 'gone\nalso gone\n', '']
        ];
        for (const [what, original, modified] of cases) {
            it(`puts back ${what}, with the right side's line breaks`, () => {
                for (const eol of ['\n', '\r\n'] as const) {
                    const shown = modified.replace(/\n/g, eol);
                    const [change, ...others] = computeReviewChanges(original, shown)!;
                    expect(others, 'one change').to.deep.equal([]);
                    expect(apply(shown, revertEdit(original, shown, change, eol), eol), JSON.stringify(eol)).to.equal(original.replace(/\n/g, eol));
                }
            });
        }

        it('puts back one change of several and leaves the others as they are', () => {
            const shown = NUMBERS.replace('two', 'TWO').replace('five', 'FIVE').replace('eight', 'EIGHT');
            const changes = computeReviewChanges(NUMBERS, shown)!;
            expect(apply(shown, revertEdit(NUMBERS, shown, changes[1], '\n'), '\n')).to.equal(NUMBERS.replace('two', 'TWO').replace('eight', 'EIGHT'));
        });
    });
});
