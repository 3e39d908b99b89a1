import { expect } from 'chai';
import { isRecord, ownField } from './own-field';

describe('ownField', () => {
    it('reads only own keys of plain objects', () => {
        expect(ownField({ a: 1 }, 'a')).to.equal(1);
        expect(ownField(Object.create({ a: 1 }), 'a'), 'inherited').to.equal(undefined);
        expect(ownField({}, 'constructor'), 'from Object.prototype').to.equal(undefined);
        expect(ownField(['x'], '0'), 'an array is not a record').to.equal(undefined);
        expect(ownField(null, 'a')).to.equal(undefined);
        expect(ownField('text', 'length')).to.equal(undefined);
    });

    it('tells records from arrays, null and primitives', () => {
        expect([{}, { a: 1 }, [], null, undefined, 'x', 3].map(isRecord)).to.deep.equal([true, true, false, false, false, false, false]);
    });
});
