import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BlobStore } from './blob-store';
import { WorkspaceSnapshotter } from './workspace-snapshotter';

/** Every file under `dir` with a hash of its content: what "nothing was written there" is checked against. */
function contentsOf(dir: string): Map<string, string> {
    const found = new Map<string, string>();
    const walk = (current: string) => fs.readdirSync(current, { withFileTypes: true }).forEach(entry => {
        const full = path.join(current, entry.name);
        if (entry.isDirectory()) {
            walk(full);
        } else {
            found.set(path.relative(dir, full), crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
        }
    });
    walk(dir);
    return found;
}

const countFiles = (dir: string): number => fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter(entry => entry.isFile()).length : 0;

describe('WorkspaceSnapshotter (git)', function (): void {
    this.timeout(30000);
    let root: string;
    let folder: string;
    let blobs: BlobStore;
    let snapshotter: WorkspaceSnapshotter;
    let warnings: string[];
    const write = (relative: string, content: string | Buffer) => {
        fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
        fs.writeFileSync(path.join(folder, relative), content);
    };
    const identity = { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' };
    const git = (...args: string[]) => execFileSync('git', args, { cwd: folder, env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', ...identity } });

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'git-snapshot-')));
        folder = path.join(root, 'ws');
        blobs = new BlobStore(path.join(root, 'blobs'));
        warnings = [];
        snapshotter = new WorkspaceSnapshotter({ gitDir: path.join(root, 'git'), blobs, warn: message => warnings.push(message) });
        write('a.txt', 'A\n');
        write('src/b.ts', 'export const b = 1;\n');
        write('gone.md', 'bye\n');
        write('image.bin', Buffer.from([0, 1, 2, 3]));
        write('node_modules/x/index.js', 'module.exports = 1;\n');
        write('.gitignore', 'dist/\n.env\n');
        write('dist/out.js', 'built\n');
        write('.env', 'KEY=1\n');
    });

    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('records a plain folder with git: added, modified and deleted files with both sides, ignored files left out, none capped', async () => {
        fs.chmodSync(path.join(folder, 'src/b.ts'), 0o640);
        const before = await snapshotter.take(folder);
        expect(before.kind).to.equal('git');
        write('src/b.ts', 'export const b = 2;\n');
        fs.rmSync(path.join(folder, 'gone.md'));
        write('new.txt', 'new\n');
        write('image.bin', Buffer.from([0, 9, 9]));
        write('dist/out.js', 'rebuilt\n');
        write('node_modules/x/index.js', 'module.exports = 2;\n');
        const after = await snapshotter.take(folder);
        const changes = await snapshotter.compare(before, after);
        expect(changes.map(change => [change.relativePath, change.kind, change.reviewable, change.binary])).to.deep.equal([
            ['gone.md', 'deleted', true, false], ['image.bin', 'modified', true, true], ['new.txt', 'added', true, false], ['src/b.ts', 'modified', true, false]
        ]);
        expect((await blobs.get(changes[0].before!))!.toString()).to.equal('bye\n');
        expect((await blobs.get(changes[3].before!))!.toString()).to.equal('export const b = 1;\n');
        expect((await blobs.get(changes[3].after!))!.toString()).to.equal('export const b = 2;\n');
        expect(changes[3].path).to.equal(path.join(folder, 'src', 'b.ts'));
        expect(changes[0].mode).to.equal(0o644);
        expect(changes[3].mode, 'a file changed in place keeps its own permission bits').to.equal(0o640);
        expect(warnings).to.deep.equal([]);
    });

    it('records ignored files the user asked for', async () => {
        const before = await snapshotter.take(folder, ['.env', 'dist/**']);
        write('.env', 'KEY=2\n');
        write('dist/out.js', 'rebuilt\n');
        const after = await snapshotter.take(folder, ['.env', 'dist/**']);
        const changes = await snapshotter.compare(before, after);
        expect(changes.map(change => change.relativePath)).to.deep.equal(['.env', 'dist/out.js']);
        expect((await blobs.get(changes[0].before!))!.toString()).to.equal('KEY=1\n');
    });

    it('sees a same-size rewrite within the same second, and a file over the size limit as changed but not reviewable', async () => {
        const small = new WorkspaceSnapshotter({
            gitDir: path.join(root, 'git-small'), blobs, warn: message => warnings.push(message),
            limits: { maxFiles: 10, maxFileBytes: 10, excludeDirectories: ['node_modules'] }
        });
        write('big.txt', 'x'.repeat(100));
        const before = await small.take(folder);
        const file = path.join(folder, 'a.txt');
        const { mtime } = fs.statSync(file);
        write('a.txt', 'B\n');
        fs.utimesSync(file, mtime, mtime);
        write('big.txt', 'y'.repeat(100));
        const after = await small.take(folder);
        const changes = await small.compare(before, after);
        expect(changes.map(change => [change.relativePath, change.reviewable])).to.deep.equal([['a.txt', true], ['big.txt', false]]);
    });

    it('starts from the folder\'s own repository without writing to it, and keeps committed content out of its own store', async () => {
        git('init', '-q');
        git('add', '-A');
        git('commit', '-q', '-m', 'first');
        git('stash', 'list');
        // Marks in the folder's index that would hide a change from `git add`: not copied along.
        git('update-index', '--assume-unchanged', 'a.txt');
        git('update-index', '--skip-worktree', 'gone.md');
        const dotGit = path.join(folder, '.git');
        const untouched = contentsOf(dotGit);
        const before = await snapshotter.take(folder);
        write('src/b.ts', 'export const b = 3;\n');
        write('a.txt', 'A, changed\n');
        write('gone.md', 'changed too\n');
        const after = await snapshotter.take(folder);
        const changes = await snapshotter.compare(before, after);
        expect(changes.map(change => [change.relativePath, change.kind])).to.deep.equal([['a.txt', 'modified'], ['gone.md', 'modified'], ['src/b.ts', 'modified']]);
        expect((await blobs.get(changes[2].before!))!.toString()).to.equal('export const b = 1;\n');
        expect(contentsOf(dotGit)).to.deep.equal(untouched);
        // The committed files are read through the repository's object store: ours holds the new content and the trees.
        const ownObjects = countFiles(path.join(before.kind === 'git' ? before.gitDir : '', 'objects'));
        expect(ownObjects, 'objects of our own').to.be.lessThan(8);
    });

    it('runs nothing a cloned repository configures and stores content byte for byte whatever its attributes say', async () => {
        const marker = path.join(root, 'ran');
        git('init', '-q');
        const hook = `#!/bin/sh\ntouch ${marker}\n`;
        fs.writeFileSync(path.join(folder, '.git', 'config'), [
            '[core]', '\trepositoryformatversion = 0', '\tbare = false', `\tfsmonitor = ${path.join(root, 'fsmonitor.sh')}`, `\thooksPath = ${path.join(root, 'hooks')}`,
            '\tautocrlf = true', '[filter "evil"]', `\tclean = touch ${marker}-clean`, `\tsmudge = touch ${marker}-smudge`, '\trequired = true', ''
        ].join('\n'));
        fs.mkdirSync(path.join(root, 'hooks'));
        for (const name of ['pre-commit', 'post-index-change', 'post-checkout']) {
            fs.writeFileSync(path.join(root, 'hooks', name), hook, { mode: 0o755 });
        }
        fs.writeFileSync(path.join(root, 'fsmonitor.sh'), hook, { mode: 0o755 });
        write('.gitattributes', '* text eol=crlf filter=evil ident\n');
        write('crlf.txt', 'one\r\ntwo\n$Id$\n');
        const before = await snapshotter.take(folder);
        expect(before.kind).to.equal('git');
        write('crlf.txt', 'three\r\n');
        const after = await snapshotter.take(folder);
        const changes = await snapshotter.compare(before, after);
        expect(changes.map(change => change.relativePath)).to.deep.equal(['crlf.txt']);
        expect((await blobs.get(changes[0].before!))!.toString()).to.equal('one\r\ntwo\n$Id$\n');
        expect((await blobs.get(changes[0].after!))!.toString()).to.equal('three\r\n');
        expect(fs.readdirSync(root).filter(name => name.startsWith('ran'))).to.deep.equal([]);
    });

    it('keeps reading file by file without git, and says why when git cannot record a folder', async () => {
        const files = new WorkspaceSnapshotter({ gitDir: path.join(root, 'git'), blobs, withoutGit: true, warn: message => warnings.push(message) });
        const before = await files.take(folder);
        expect(before.kind).to.equal('files');
        write('a.txt', 'changed\n');
        expect((await files.compare(before, await files.take(folder))).map(change => change.relativePath)).to.deep.equal(['a.txt']);

        // A nested repository with no commit: git cannot add it, so the folder is read file by file, with the reason logged.
        fs.mkdirSync(path.join(folder, 'nested'));
        execFileSync('git', ['init', '-q'], { cwd: path.join(folder, 'nested'), env: { PATH: process.env.PATH, HOME: root } });
        write('nested/file.txt', 'x\n');
        const fallback = await snapshotter.take(folder);
        expect(fallback.kind).to.equal('files');
        expect(warnings.join('\n')).to.match(/Recording .* with git failed, reading its files instead: git add/);
    });
});
