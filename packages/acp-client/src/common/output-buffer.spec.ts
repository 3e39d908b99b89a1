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

    it('keeps the last 1 MiB when no limit is given, and never more than 16 MiB whatever is asked', () => {
        const buffer = new OutputBuffer();
        buffer.append('x'.repeat(1024 * 1024));
        expect(buffer.truncated).to.equal(false);
        buffer.append('the end');
        expect(buffer.truncated).to.equal(true);
        expect(buffer.text).to.have.length(1024 * 1024);
        expect(buffer.text.endsWith('xthe end')).to.equal(true);
        const greedy = new OutputBuffer(Number.MAX_SAFE_INTEGER);
        greedy.append(Buffer.alloc(17 * 1024 * 1024, 'y'));
        expect(greedy.truncated).to.equal(true);
        expect(Buffer.byteLength(greedy.text)).to.equal(16 * 1024 * 1024);
    });

    it('says truncated once anything was dropped, also after reading and appending again', () => {
        const buffer = new OutputBuffer(4);
        buffer.append('abcdef');
        expect(buffer.text).to.equal('cdef');
        buffer.append('g');
        expect(buffer.text).to.equal('defg');
        expect(buffer.truncated).to.equal(true);
        const exact = new OutputBuffer(4);
        exact.append('abcd');
        expect([exact.text, exact.truncated]).to.deep.equal(['abcd', false]);
    });
});
