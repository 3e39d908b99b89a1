import { expect } from 'chai';
import { MAX_CLIENT_TEXT_LENGTH, sanitizeClientText } from './client-text';

describe('sanitizeClientText', () => {
    it('keeps ordinary names and versions as they are', () => {
        for (const text of ['gemini-cli', '0.9.0-nightly.20251201', 'Qwen Code ✨', 'claude-code 2.1.332', '']) {
            expect(sanitizeClientText(text)).to.equal(text);
        }
    });

    it('drops line breaks, escape sequences, control, format and bidirectional characters', () => {
        expect(sanitizeClientText('\nevil\r\nINFO Diff accepted')).to.equal('evil INFO Diff accepted');
        expect(sanitizeClientText('\u001b[31mred\u001b[0m \u001b[2K\u009b1mbold')).to.equal('red bold');
        expect(sanitizeClientText('\u001b]0;new title\u0007name \u001b]8;;http://x\u001b\\link')).to.equal('name link');
        expect(sanitizeClientText('a\u0000b\u0007c\u007fd\u0085e\u200bf\u202eg\u2066h\ufeffi')).to.equal('abcd efghi');
        expect(sanitizeClientText('lone \ud800 surrogate, pair 😀')).to.equal('lone surrogate, pair 😀');
    });

    it('caps the length in code points, with an ellipsis, whatever the input size', () => {
        const capped = sanitizeClientText('x'.repeat(10_000));
        expect(capped).to.equal('x'.repeat(MAX_CLIENT_TEXT_LENGTH - 1) + '…');
        expect(Array.from(sanitizeClientText('😀'.repeat(500))).length).to.equal(MAX_CLIENT_TEXT_LENGTH);
        expect(sanitizeClientText('/a/b/c', 4)).to.equal('/a/…');
        // What lies beyond the part looked at still shows as cut.
        expect(sanitizeClientText('name' + '\u0000'.repeat(5_000_000) + 'tail')).to.equal('name…');
    });
});
