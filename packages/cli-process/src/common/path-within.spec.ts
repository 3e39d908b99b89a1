import { expect } from 'chai';
import { isPathWithin } from './path-within';

describe('isPathWithin', () => {
    it('accepts the root and what lies below it, including names that start with dots', () => {
        expect(isPathWithin('/ws', '/ws')).to.equal(true);
        expect(isPathWithin('/ws/src/a.ts', '/ws')).to.equal(true);
        expect(isPathWithin('/ws/..notes/a.md', '/ws'), 'a folder named "..notes" is inside').to.equal(true);
        expect(isPathWithin('/ws/a', '/ws/')).to.equal(true);
        expect(isPathWithin('/', '/')).to.equal(true);
    });

    it('refuses siblings that share a prefix, parents, and other separators\' paths', () => {
        expect(isPathWithin('/ws2/a', '/ws')).to.equal(false);
        expect(isPathWithin('/', '/ws')).to.equal(false);
        expect(isPathWithin('C:\\ws\\a', 'C:\\ws', '\\')).to.equal(true);
        expect(isPathWithin('C:\\ws2', 'C:\\ws', '\\')).to.equal(false);
    });
});
