import { expect } from 'chai';
import { SnapshotIncludeSchema } from './snapshot-include';

describe('SnapshotIncludeSchema', () => {
    it('takes globs relative to the folder', () => {
        expect(SnapshotIncludeSchema.parse(['.env', 'generated/**', '**/*.local'])).to.deep.equal(['.env', 'generated/**', '**/*.local']);
    });

    it('refuses pathspec magic, absolute paths, a way out of the folder, every file or node_modules/.git wholesale, and what is not a list of strings', () => {
        for (const bad of [[':(top)x'], [':!x'], ['/etc/passwd'], ['../outside/**'], ['a/../../b'], ['a\0b'], [''], 'x', [1], Array(101).fill('x'),
            ['**'], ['**/*'], ['node_modules'], ['**/node_modules/**'], ['.git/**']]) {
            expect(SnapshotIncludeSchema.safeParse(bad).success, JSON.stringify(bad)).to.equal(false);
        }
    });
});
