import { expect } from 'chai';
import { BoundedLineSplitter } from './bounded-line-splitter';

describe('BoundedLineSplitter', () => {
    it('splits chunks into lines wherever the chunks break, UTF-8 characters and CRLF included', () => {
        const splitter = new BoundedLineSplitter(100);
        const bytes = Buffer.from('one\r\ntwo ü😀\nthr');
        const lines = [...bytes].map(byte => splitter.push(Uint8Array.of(byte))).flat();
        expect(lines).to.deep.equal([{ text: 'one', cut: false }, { text: 'two ü😀', cut: false }]);
        expect(splitter.push('ee\n\nfour')).to.deep.equal([{ text: 'three', cut: false }, { text: '', cut: false }]);
        expect(splitter.end()).to.deep.equal([{ text: 'four', cut: false }]);
        expect(splitter.end()).to.deep.equal([]);
    });

    it('hands on a runaway line cut as soon as it is too long, drops the rest of it, and goes on after its newline', () => {
        const splitter = new BoundedLineSplitter(10);
        expect(splitter.push('abcdef')).to.deep.equal([]);
        expect(splitter.push('ghijklmnop')).to.deep.equal([{ text: 'abcdefghij', cut: true }]);
        for (let i = 0; i < 1000; i++) {
            expect(splitter.push('x'.repeat(64 * 1024))).to.deep.equal([]);
        }
        expect(splitter.push('yyy\nnext\n')).to.deep.equal([{ text: 'next', cut: false }]);
        expect(splitter.push('z'.repeat(25) + '\nshort\n')).to.deep.equal([{ text: 'z'.repeat(10), cut: true }, { text: 'short', cut: false }]);
        expect(splitter.end()).to.deep.equal([]);
    });

    it('holds no more than the bound of an endless line', () => {
        const splitter = new BoundedLineSplitter(1024);
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        for (let i = 0; i < 64; i++) {
            splitter.push(chunk);
        }
        expect((splitter as unknown as { pending: string }).pending.length).to.be.at.most(1024);
        expect(splitter.end()).to.deep.equal([]);
    });

    it('refuses a bound that is not a positive integer', () => {
        for (const bad of [0, -1, 1.5, NaN]) {
            expect(() => new BoundedLineSplitter(bad)).to.throw(RangeError);
        }
    });
});
