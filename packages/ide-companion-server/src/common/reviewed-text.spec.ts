import { expect } from 'chai';
import * as fc from 'fast-check';
import { REVIEWED_TEXT_MAX_EDIT_LENGTH, reviewedText } from './reviewed-text';

const BOM = '\uFEFF';
type Eol = '\n' | '\r\n' | '\r';
type ModelEol = '\n' | '\r\n';

/** What Monaco's model gives back: the leading BOM dropped, every line break its one EOL. */
function shownBy(text: string, eol: ModelEol): string {
    return text.replace(/^\uFEFF/, '').replace(/\r\n|\r|\n/g, eol);
}

/** The same text up to line breaks: what the user saw is what is reported. */
function normalised(text: string): string {
    return text.replace(/\r\n|\r/g, '\n');
}

// The oracle's model of a review: O and P share common runs and differ in k separated blocks; the user
// rejects some blocks (the shown text takes O's lines there) and may type over one of them. Every line
// carries a tag (side, block, index) so that the alignment is unambiguous, and content around it that
// Monaco does not break on (U+2028, U+2029, U+0085), astral and zero-width characters.
interface Line { content: string; eol: Eol }
interface Common { kind: 'common'; lines: Array<{ content: string; originalEol: Eol; proposedEol: Eol }> }
interface Block { kind: 'block'; original: Line[]; proposed: Line[] }
type Segment = Common | Block;

const EOL = fc.constantFrom<Eol>('\n', '\r\n', '\r');
const DECORATION = fc.string({
    unit: fc.constantFrom('a', ' ', '\t', 'é', '中', '😀', '𝄞', '🏳️‍🌈', '\u200b', '\u00a0', '\u2028', '\u2029', '\u0085', BOM),
    maxLength: 6
});
// Not at the start of a line: Monaco would take a U+FEFF there, on a file's first line, for the BOM.
const LEADING = DECORATION.filter(text => !text.startsWith(BOM));
const tagged = (tag: string) => fc.tuple(LEADING, DECORATION).map(([before, after]) => `${before}${tag}${after}`);
const lines = (tag: string, minLength: number) => fc.array(fc.tuple(tagged(tag), EOL), { minLength, maxLength: 3 })
    .map(pairs => pairs.map(([content, eol], i) => ({ content: content.replace(tag, `${tag}.${i}`), eol })));

/** Common run `index`: the same lines in O and P, whose terminators may differ (P's are reported). */
const common = (index: number, minLength: number): fc.Arbitrary<Common> => fc.array(fc.tuple(tagged(`c${index}`), EOL, EOL), { minLength, maxLength: 3 })
    .map(rows => ({
        kind: 'common',
        lines: rows.map(([content, originalEol, proposedEol], i) => ({ content: content.replace(`c${index}`, `c${index}.${i}`), originalEol, proposedEol }))
    }));

/** Block `index`: O's lines replaced by P's (an insertion or a deletion when one side is empty). */
const block = (index: number, atEnd: boolean): fc.Arbitrary<Block> => fc.tuple(lines(`o${index}`, atEnd ? 1 : 0), lines(`p${index}`, atEnd ? 1 : 0))
    .filter(([original, proposed]) => original.length + proposed.length > 0)
    .map(([original, proposed]) => ({ kind: 'block', original, proposed }));

/** c0 b1 c1 … bk ck: inner common runs are never empty (separate changes); a block at the very end replaces (so both files end in it). */
const review = fc.integer({ min: 1, max: 4 }).chain(k => fc.record({
    segments: fc.tuple(common(0, 0), ...Array.from({ length: k }, (_, i) => fc.tuple(block(i + 1, false), common(i + 1, i + 1 < k ? 1 : 0))))
        .chain(([first, ...rest]) => {
            const segments: Segment[] = [first, ...rest.flat()];
            const last = segments[segments.length - 1];
            // A change at the very end must replace lines on both sides: otherwise the end of the file
            // (the last line's missing terminator) would move between a block and a common line.
            return last.kind === 'common' && last.lines.length === 0
                ? block(k, true).map(end => [...segments.slice(0, -2), end])
                : fc.constant(segments);
        }),
    rejected: fc.array(fc.boolean(), { minLength: k, maxLength: k }),
    originalBom: fc.boolean(),
    proposalBom: fc.boolean(),
    originalFinalNewline: fc.boolean(),
    proposalFinalNewline: fc.boolean(),
    modelEol: fc.constantFrom<ModelEol>('\n', '\r\n')
}));
type Review = typeof review extends fc.Arbitrary<infer T> ? T : never;

/** The raw text of some lines: the last gets no terminator, or one and then the empty last line. */
function join(lineList: Line[], finalNewline: boolean): string {
    return lineList.map((line, i) => line.content + (i < lineList.length - 1 || finalNewline ? line.eol : '')).join('');
}

function sideOf(segments: Segment[], pick: (block: Block, index: number) => 'original' | 'proposed'): Line[] {
    let blockIndex = 0;
    return segments.flatMap(segment => {
        if (segment.kind === 'common') {
            return segment.lines.map(line => ({ content: line.content, eol: line.proposedEol }));
        }
        return segment[pick(segment, blockIndex++)];
    });
}

interface Case { original: string; proposal: string; expected: string; expectedLines: Line[]; finalNewline: boolean }

/** O, P and the expected text, built from the block structure only. */
function build(r: Review): Case {
    const originalLines = r.segments.flatMap(segment => segment.kind === 'common'
        ? segment.lines.map(line => ({ content: line.content, eol: line.originalEol }))
        : segment.original);
    const last = r.segments[r.segments.length - 1];
    const endRejected = last.kind === 'block' && r.rejected[r.rejected.length - 1];
    const expectedLines = sideOf(r.segments, (_, index) => r.rejected[index] ? 'original' : 'proposed');
    const finalNewline = endRejected ? r.originalFinalNewline : r.proposalFinalNewline;
    return {
        original: (r.originalBom ? BOM : '') + join(originalLines, r.originalFinalNewline),
        proposal: (r.proposalBom ? BOM : '') + join(sideOf(r.segments, () => 'proposed'), r.proposalFinalNewline),
        expected: (r.proposalBom ? BOM : '') + join(expectedLines, finalNewline),
        expectedLines,
        finalNewline
    };
}

describe('reviewedText', () => {
    it('reports P with the rejected changes replaced by O\'s raw lines, byte for byte (generated reviews)', () => {
        fc.assert(fc.property(review, r => {
            const { original, proposal, expected } = build(r);
            const shown = shownBy(expected, r.modelEol);
            expect(reviewedText({ proposal, original, shown })).to.equal(expected);
        }), { numRuns: 300 });
    });

    it('gives the editor\'s EOL to typed lines only, every other line keeps its terminator (generated reviews)', () => {
        fc.assert(fc.property(review, fc.nat(), fc.array(tagged('typed'), { minLength: 1, maxLength: 3 }), (r, which, typed) => {
            const { original, proposal, expectedLines, finalNewline } = build(r);
            // The user types over one block that a common line follows, so no typed line is the last one.
            const candidates = r.segments.flatMap((segment, i) => segment.kind === 'block' && i + 1 < r.segments.length ? [i] : []);
            fc.pre(candidates.length > 0);
            const target = candidates[which % candidates.length];
            const before = r.segments.slice(0, target);
            const blockIndex = before.filter(segment => segment.kind === 'block').length;
            const start = sideOf(before, (_, i) => r.rejected[i] ? 'original' : 'proposed').length;
            const targetBlock = r.segments[target] as Block;
            const replaced = (r.rejected[blockIndex] ? targetBlock.original : targetBlock.proposed).length;
            const edited = [...expectedLines];
            edited.splice(start, replaced, ...typed.map(content => ({ content, eol: r.modelEol })));
            const expected = (r.proposalBom ? BOM : '') + join(edited, finalNewline);
            expect(reviewedText({ proposal, original, shown: shownBy(expected, r.modelEol) })).to.equal(expected);
        }), { numRuns: 300 });
    });

    it('never changes what the user saw: any text over any proposal and original reads back as the shown text', () => {
        const anyText = fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n', BOM, '😀'), maxLength: 30 });
        fc.assert(fc.property(anyText, fc.option(anyText, { nil: undefined }), anyText, (proposal, original, shown) => {
            const result = reviewedText({ proposal, original, shown });
            const bom = proposal.startsWith(BOM) ? BOM : '';
            expect(result.startsWith(bom), 'the proposal\'s BOM').to.equal(true);
            expect(normalised(result.slice(bom.length)), JSON.stringify({ proposal, original, shown, result })).to.equal(normalised(shown));
        }), { numRuns: 500 });
    });

    it('returns an unedited proposal verbatim, whatever Monaco normalised', () => {
        const proposal = '\uFEFFa\r\nb\nc\rd\u2028e\r\n😀\n';
        expect(reviewedText({ proposal, original: 'a\n', shown: 'a\nb\nc\nd\u2028e\n😀\n' })).to.equal(proposal);
        expect(reviewedText({ proposal, original: undefined, shown: 'a\r\nb\r\nc\r\nd\u2028e\r\n😀\r\n' })).to.equal(proposal);
        expect(reviewedText({ proposal: 'x', original: 'y', shown: 'x' })).to.equal('x');
        expect(reviewedText({ proposal: '', original: 'y', shown: '' })).to.equal('');
    });

    it('restores a rejected change with the original\'s line endings and keeps the proposal\'s elsewhere', () => {
        const original = 'one\r\ntwo\r\nthree\r\nfour\r\n';
        const proposal = 'one\nTWO\nthree\nFOUR\n';
        // The user rejected the first change: the editor (LF model) shows the original's "two".
        expect(reviewedText({ proposal, original, shown: 'one\ntwo\nthree\nFOUR\n' })).to.equal('one\ntwo\r\nthree\nFOUR\n');
        // With a CRLF model, and the second change rejected, where the original had no final newline.
        expect(reviewedText({ proposal: 'a\nB\nc\nD\n', original: 'a\rb\rc\rd', shown: 'a\r\nB\r\nc\r\nd' })).to.equal('a\nB\nc\nd');
    });

    it('typing inside one change keeps the proposal\'s terminators everywhere else', () => {
        const proposal = '\uFEFFa\r\nb\nc\rd\r\ne';
        // "c" is edited to "c!" and a line is typed after it; the model's EOL is LF.
        expect(reviewedText({ proposal, original: undefined, shown: 'a\nb\nc!\nnew\nd\ne' })).to.equal('\uFEFFa\r\nb\nc!\nnew\nd\r\ne');
        // A line typed after the proposal's last line, which had no terminator: that line gets the model's.
        expect(reviewedText({ proposal: 'a\nb', original: undefined, shown: 'a\r\nb\r\nc' })).to.equal('a\nb\r\nc');
        expect(reviewedText({ proposal: 'a\rb', original: undefined, shown: 'a\nb\nc' })).to.equal('a\rb\nc');
    });

    it('handles a new file (no original): deleted and typed lines, the BOM', () => {
        const proposal = '\uFEFFfirst\r\nsecond\rthird\n';
        expect(reviewedText({ proposal, original: undefined, shown: 'first\nthird\n' })).to.equal('\uFEFFfirst\r\nthird\n');
        expect(reviewedText({ proposal, original: undefined, shown: 'first\nsecond\nthird\nfourth' })).to.equal('\uFEFFfirst\r\nsecond\rthird\nfourth');
        expect(reviewedText({ proposal, original: undefined, shown: '' })).to.equal('\uFEFF');
    });

    it('treats a U+FEFF at the start of the shown text as content: Monaco strips one BOM only', () => {
        // A proposal that starts with two U+FEFF is shown with one, and accepting it unedited loses none.
        expect(reviewedText({ proposal: '\uFEFF\uFEFFx\r\n', original: undefined, shown: '\uFEFFx\n' })).to.equal('\uFEFF\uFEFFx\r\n');
        // One the user typed at the start of a proposal without a BOM is kept.
        expect(reviewedText({ proposal: 'x\r\n', original: undefined, shown: '\uFEFFx\n' })).to.equal('\uFEFFx\n');
        expect(reviewedText({ proposal: '\uFEFFx\r\ny', original: undefined, shown: '\uFEFFx\ny' })).to.equal('\uFEFF\uFEFFx\ny');
    });

    it('never lets a lone CR fuse with an empty line\'s LF into one CRLF (a line the user sees would be lost)', () => {
        // The user added an empty line after "x", whose terminator in the proposal is a lone CR.
        expect(reviewedText({ proposal: 'x\ry', original: undefined, shown: 'x\n\ny' })).to.equal('x\n\ny');
        // The user rejected the change that removed the original's empty line (LF) after "x".
        expect(reviewedText({ proposal: 'x\rY', original: 'x\n\ny', shown: 'x\n\ny' })).to.equal('x\n\ny');
    });

    it('best effort for equal adjacent lines with different terminators: the first of them is kept', () => {
        // P adds a second "}" (CRLF) after the first (LF); the user rejects that addition. Which "}" was the
        // addition is Monaco's choice; jsdiff keeps the first, so the remaining "}" ends in LF. The content
        // is exact either way.
        expect(reviewedText({ proposal: 'f\n}\n}\r\n', original: 'f\r\n}\r\n', shown: 'f\n}\n' })).to.equal('f\n}\n');
    });

    it('falls back to the shown text (with the proposal\'s BOM) when the diff gives up', () => {
        // More inserted lines than the edit limit.
        const proposal = '\uFEFF' + 'p\r\n'.repeat(10);
        const shown = 'p\n'.repeat(5) + Array.from({ length: REVIEWED_TEXT_MAX_EDIT_LENGTH + 1 }, (_, i) => `typed ${i}\n`).join('') + 'p\n'.repeat(5);
        expect(reviewedText({ proposal, original: undefined, shown })).to.equal('\uFEFF' + shown);
    });

    it('keeps the proposal\'s terminators when only the original cannot be aligned', () => {
        // The user rejected the first change of a proposal that added more lines than the edit limit:
        // the original is too far from the shown text to align, so the restored line takes the editor's
        // EOL, and the proposal's lines keep theirs.
        const added = Array.from({ length: REVIEWED_TEXT_MAX_EDIT_LENGTH + 1 }, (_, i) => `new ${i}`);
        const proposal = ['NEW', ...added].map(line => line + '\r').join('');
        const shown = ['old', ...added, ''].join('\n');
        expect(reviewedText({ proposal, original: 'old\r\n', shown })).to.equal('old\n' + added.map(line => line + '\r').join(''));
        // Aligned, it keeps the original's CRLF.
        expect(reviewedText({ proposal: 'NEW\rnew\r', original: 'old\r\n', shown: 'old\nnew\n' })).to.equal('old\r\nnew\r');
    });
});
