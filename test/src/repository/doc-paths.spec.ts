import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { declaredNames, namedPaths, namedTypes, pathExists } from '../support/doc-paths';

const REPO = path.resolve(__dirname, '..', '..', '..');

/** The documents a newcomer reads to find their way: each file they name must be there. */
function documents(): string[] {
    const tracked = execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: REPO }).toString('utf8').split('\0').filter(Boolean);
    return tracked.filter(file => /^(README|ARCHITECTURE|SECURITY)\.md$|^docs\/[^/]+\.md$|^packages\/[^/]+\/(README|PROTOCOL)\.md$/.test(file));
}

/** Names ARCHITECTURE.md and the package READMEs give that are not ours: Theia's, Monaco's, the clients' and products'. */
const NOT_OURS = new Set(['BackendApplication', 'ContainerModule', 'DiffEditorWidget', 'MenuId', 'IdeClient', 'OpenCode']);

/** Every TypeScript source of the repository's packages and test helpers; not specs, whose fixture strings name types too. */
function sources(): string[] {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'packages/*/src/*', 'test/*/src/*', 'test/src/*'], { cwd: REPO })
        .toString('utf8').split('\n').filter(file => /\.tsx?$/.test(file) && !/\.(slow-)?spec\.ts$/.test(file) && fs.existsSync(path.join(REPO, file)));
    return files.map(file => fs.readFileSync(path.join(REPO, file), 'utf8'));
}

describe('Documents name files and types that exist', () => {
    it('finds the file names a document gives, and only those', () => {
        const found = namedPaths('X.md', [
            'See `node/read-file-bounded.ts` and [the guide](docs/user-guide.md#preferences).',
            'Not files: `npm run test`, `aiCliCompanion.enabled`, `*.spec.ts`, `<tmpdir>/gemini`, [site](https://example.com/a.md).'
        ].join('\n'));
        expect(found.map(entry => `${entry.line}:${entry.name}`)).to.deep.equal(['1:node/read-file-bounded.ts', '1:docs/user-guide.md']);
    });

    it('reads a name as the documents write it, and fails a name whose file is gone', () => {
        const files = execFileSync('git', ['ls-files'], { cwd: REPO }).toString('utf8').split('\n').filter(Boolean);
        expect(pathExists('node/read-file-bounded.ts', REPO, REPO, files), 'from a package\'s src').to.equal(true);
        expect(pathExists('lib/node/stdio-bridge-main.js', REPO, REPO, files), 'compiled, as its source').to.equal(true);
        expect(pathExists('test/src/support/doc-paths.ts', REPO, REPO, files), 'from the root').to.equal(true);
        expect(pathExists('read-file-bounded.spec.ts', REPO, REPO, files), 'a bare name').to.equal(true);
        expect(pathExists('node/no-such-thing.ts', REPO, REPO, files)).to.equal(false);
        expect(pathExists('gone-helper.ts', REPO, REPO, files)).to.equal(false);
    });

    it('README, ARCHITECTURE.md, SECURITY.md, docs/ and every package\'s README and PROTOCOL.md name only files that exist', () => {
        // What is in the checkout now (a file deleted but not yet staged is gone).
        const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO }).toString('utf8').split('\n')
            .filter(file => file && fs.existsSync(path.join(REPO, file)));
        const missing = documents().flatMap(document => namedPaths(document, fs.readFileSync(path.join(REPO, document), 'utf8'))
            .filter(entry => !pathExists(entry.name, path.dirname(path.join(REPO, document)), REPO, files))
            .map(entry => `${entry.document}:${entry.line}: ${entry.name}`));
        expect(missing, 'named in a document, not in the tree').to.deep.equal([]);
    });

    it('reads the type names a document gives, and knows a declared name from a gone one', () => {
        const found = namedTypes('X.md', 'The `DiffReviewManager` and `DiffReviewService.review`; not `aiCliCompanion.enabled`, `TMPDIR`, `Gemini` or `OpenCode`.', NOT_OURS);
        expect(found.map(entry => entry.name)).to.deep.equal(['DiffReviewManager', 'DiffReviewService']);
        const declared = declaredNames(['export class DiffReviewManager {}', 'export const DiffReviewService = Symbol();']);
        expect(found.filter(entry => !declared.has(entry.name))).to.deep.equal([]);
        expect(declaredNames(['export class Other {}']).has('DiffReviewManager')).to.equal(false);
    });

    it('ARCHITECTURE.md and every package\'s README name only types, services and functions the code declares', () => {
        const declared = declaredNames(sources());
        const documentsWithTypes = documents().filter(document => /^ARCHITECTURE\.md$|^packages\/[^/]+\/README\.md$/.test(document));
        const missing = documentsWithTypes.flatMap(document => namedTypes(document, fs.readFileSync(path.join(REPO, document), 'utf8'), NOT_OURS)
            .filter(entry => !declared.has(entry.name))
            .map(entry => `${entry.document}:${entry.line}: ${entry.name}`));
        expect(missing, 'named in a document, declared nowhere in the code').to.deep.equal([]);
    });
});
