import { expect } from 'chai';
import { acceptedText } from './proposal-text';

describe('acceptedText', () => {
    it('returns an unedited proposal byte for byte, whatever the editor normalised', () => {
        const mixed = '\uFEFFa\r\nb\nc\rd';
        expect(acceptedText(mixed, 'a\nb\nc\nd')).to.equal(mixed);
        expect(acceptedText(mixed, 'a\r\nb\r\nc\r\nd')).to.equal(mixed);
        expect(acceptedText('no newline at end', 'no newline at end')).to.equal('no newline at end');
        expect(acceptedText('😀 astral\n', '😀 astral\n')).to.equal('😀 astral\n');
    });

    it('returns the user\'s edit, with the BOM the proposal had', () => {
        expect(acceptedText('a\r\nb\r\n', 'a\r\nb edited\r\n')).to.equal('a\r\nb edited\r\n');
        expect(acceptedText('\uFEFFa\n', 'a edited\n')).to.equal('\uFEFFa edited\n');
        expect(acceptedText('a\n', 'a\n\n')).to.equal('a\n\n');
    });
});
