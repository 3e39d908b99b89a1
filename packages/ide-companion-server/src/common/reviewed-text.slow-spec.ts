import { expect } from 'chai';
import { REVIEWED_TEXT_MAX_LINES, reviewedText } from './reviewed-text';

/** What Monaco's model gives back: the leading BOM dropped, every line break its one EOL. */
function shownBy(text: string, eol: '\n' | '\r\n'): string {
    return text.replace(/^\uFEFF/, '').replace(/\r\n|\r|\n/g, eol);
}

describe('reviewedText (large inputs)', () => {
    it('keeps every terminator of a 5 MB proposal with one change rejected', () => {
        const row = (i: number) => `const value${i} = "😀 ünïcödé";\t// ${i}`;
        const count = Math.ceil(5 * 1024 * 1024 / row(0).length);
        const eol = (i: number) => ['\r\n', '\n', '\r'][i % 3];
        const originalRows = Array.from({ length: count }, (_, i) => row(i) + '\n');
        const proposedRows = Array.from({ length: count }, (_, i) => (i % 5000 === 7 ? `${row(i)} changed` : row(i)) + eol(i));
        const expectedRows = [...proposedRows];
        expectedRows[7] = originalRows[7];
        const expected = '\uFEFF' + expectedRows.join('') + 'end';
        const proposal = '\uFEFF' + proposedRows.join('') + 'end';
        expect(proposal.length).to.be.above(5 * 1024 * 1024);
        expect(reviewedText({ proposal, original: originalRows.join(''), shown: shownBy(expected, '\r\n') }) === expected, 'byte-exact').to.equal(true);
    });

    it('falls back to the shown text beyond the line limit', () => {
        const proposal = 'x\r\n'.repeat(REVIEWED_TEXT_MAX_LINES);
        const shown = 'y\n' + 'x\n'.repeat(REVIEWED_TEXT_MAX_LINES);
        expect(reviewedText({ proposal, original: undefined, shown }) === shown, 'the shown text').to.equal(true);
    });
});
