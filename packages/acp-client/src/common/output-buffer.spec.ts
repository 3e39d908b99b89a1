import { expect } from 'chai';
import { OutputBuffer } from './output-buffer';

describe('OutputBuffer', () => {
    it('keeps everything below the limit', () => {
        const buffer = new OutputBuffer(100);
        buffer.append('hello ');
        buffer.append(Buffer.from('world'));
        expect(buffer.text).to.equal('hello world');
        expect(buffer.truncated).to.equal(false);
    });

    it('drops from the beginning beyond the limit, never splitting a character', () => {
        const buffer = new OutputBuffer(7);
        buffer.append('abc');
        buffer.append('défg€h'); // 'é' is 2 bytes and '€' 3: 'fg€h' is 6 bytes, one more would cut 'é'
        expect(Buffer.byteLength(buffer.text, 'utf8')).to.be.at.most(7);
        expect('abcdéfg€h'.endsWith(buffer.text)).to.equal(true);
        expect(buffer.text).to.equal('fg€h');
        expect(buffer.truncated).to.equal(true);
        const astral = new OutputBuffer(6);
        astral.append('x😀y😀'); // 10 bytes; the last 6 start inside the first emoji
        expect(astral.text).to.equal('y😀');
    });

    it('has no limit when none is given', () => {
        const buffer = new OutputBuffer();
        buffer.append('x'.repeat(1_000_000));
        expect(buffer.text.length).to.equal(1_000_000);
        expect(buffer.truncated).to.equal(false);
    });
});
