import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HostileFiles, within } from '@theia-cli-companion/safe-files/lib/node/test';
import type { SnapshotFileChange } from '../../common/snapshot-file-change';
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

        // Our index is unusable: git cannot record the folder at all, so it is read file by file, with the reason logged.
        const gitDir = path.join(root, 'git', crypto.createHash('sha256').update(folder).digest('hex').slice(0, 32));
        fs.mkdirSync(gitDir, { recursive: true });
        fs.writeFileSync(path.join(gitDir, 'index'), 'not an index');
        const fallback = await snapshotter.take(folder);
        expect(fallback.kind).to.equal('files');
        expect(warnings.join('\n')).to.match(/Recording .* with git failed, reading its files instead: git add/);
        // The two ends of a turn recorded by different engines are not compared as if nothing changed.
        const other = await new WorkspaceSnapshotter({ gitDir: path.join(root, 'git2'), blobs, warn: () => undefined }).take(folder);
        expect(other.kind).to.equal('git');
        await snapshotter.compare(fallback, other).then(() => expect.fail('compared across engines'), error => expect(String(error)).to.match(/recorded by git at one end/));
    });

    it('a file that may not be read (chmod 000), recorded or new, is listed as changed and not restorable; the rest are recorded by git', async () => {
        // Root reads every file: as root the snapshots are taken by a process of its own without the capabilities that
        // override file permissions (still root, so the checkout's folders, 0700 in a fresh clone, stay readable).
        const script = path.join(root, 'scenario.js');
        fs.writeFileSync(script, `
            const fs = require('fs');
            const path = require('path');
            const { WorkspaceSnapshotter } = require(${JSON.stringify(require.resolve('./workspace-snapshotter'))});
            const { BlobStore } = require(${JSON.stringify(require.resolve('./blob-store'))});
            (async () => {
                const [root, folder] = process.argv.slice(2);
                const snapshotter = new WorkspaceSnapshotter({ gitDir: path.join(root, 'git-u'), blobs: new BlobStore(path.join(root, 'blobs-u')), warn: console.error });
                const before = await snapshotter.take(folder);
                fs.writeFileSync(path.join(folder, 'a.txt'), 'changed\\n');
                fs.writeFileSync(path.join(folder, 'gone.md'), 'changed, then closed\\n');
                fs.chmodSync(path.join(folder, 'gone.md'), 0);
                fs.writeFileSync(path.join(folder, 'hidden.txt'), 'new\\n');
                fs.chmodSync(path.join(folder, 'hidden.txt'), 0);
                const after = await snapshotter.take(folder);
                const changes = await snapshotter.compare(before, after);
                const next = await snapshotter.take(folder);
                console.log(JSON.stringify({ kinds: [before.kind, after.kind, next.kind], changes }));
            })().catch(error => { console.error(error); process.exit(1); });
        `);
        const withoutOverride = ['-dac_override', '-dac_read_search'].join(',');
        const command = process.getuid?.() === 0
            ? ['setpriv', `--bounding-set=${withoutOverride}`, `--inh-caps=${withoutOverride}`, process.execPath]
            : [process.execPath];
        const output = execFileSync(command[0], [...command.slice(1), script, root, folder], { env: { PATH: process.env.PATH, HOME: root } }).toString();
        const { kinds, changes } = JSON.parse(output) as { kinds: string[]; changes: SnapshotFileChange[] };
        expect(kinds).to.deep.equal(['git', 'git', 'git']);
        expect(changes.map(change => [change.relativePath, change.kind, change.reviewable, change.unreadable])).to.deep.equal([
            ['a.txt', 'modified', true, undefined],
            ['gone.md', 'modified', false, 'it may not be read (permission denied)'],
            ['hidden.txt', 'added', false, 'it may not be read (permission denied)']
        ]);
    });

    it('a recorded file that became a named pipe is a partial add: the other changes are listed, the pipe as changed and not restorable, and git keeps recording', async () => {
        const hostile = new HostileFiles();
        try {
            const before = await snapshotter.take(folder);
            write('a.txt', 'changed\n');
            write('new.txt', 'new\n');
            hostile.pipe(path.join(folder, 'src/b.ts'));
            // A pipe that was never a file is no file to list; a repository with no commit is a folder git cannot record.
            hostile.pipe(path.join(folder, 'fresh.pipe'));
            fs.mkdirSync(path.join(folder, 'nested'));
            execFileSync('git', ['init', '-q'], { cwd: path.join(folder, 'nested'), env: { PATH: process.env.PATH, HOME: root } });
            write('nested/file.txt', 'x\n');
            const after = await within(5000, 'a snapshot with a named pipe', snapshotter.take(folder));
            expect(after.kind).to.equal('git');
            const changes = await snapshotter.compare(before, after);
            expect(changes.map(change => [change.relativePath, change.kind, change.reviewable, change.unreadable])).to.deep.equal([
                ['a.txt', 'modified', true, undefined],
                ['nested/', 'added', false, 'a repository with no commit inside the folder: its files are not recorded'],
                ['new.txt', 'added', true, undefined],
                ['src/b.ts', 'modified', false, 'it is now a named pipe, which is never read']
            ]);
            expect(changes.find(change => change.relativePath === 'src/b.ts')).to.not.have.any.keys('before', 'after');
            expect(warnings).to.deep.equal([]);

            // The pipe goes back to a file: listed as changed (its earlier side unknown); the folder is still recorded by git.
            fs.rmSync(path.join(folder, 'src/b.ts'));
            write('src/b.ts', 'export const b = 2;\n');
            const later = await snapshotter.take(folder);
            expect(later.kind).to.equal('git');
            expect((await snapshotter.compare(after, later)).map(change => [change.relativePath, change.kind, change.unreadable])).to.deep.equal([
                ['src/b.ts', 'modified', 'it could not be read at the earlier snapshot (it is now a named pipe, which is never read)']
            ]);
        } finally {
            hostile.release();
        }
    });

    it('says when the contents are kept, before the tree is written: what changes from then on is not in the snapshot', async () => {
        await snapshotter.take(folder);
        const order: string[] = [];
        const before = await snapshotter.take(folder, [], () => {
            order.push('recorded');
            write('a.txt', 'changed the moment git had it\n');
        });
        order.push('taken');
        const after = await snapshotter.take(folder);
        expect(order).to.deep.equal(['recorded', 'taken']);
        const changes = await snapshotter.compare(before, after);
        expect(changes.map(change => change.relativePath)).to.deep.equal(['a.txt']);
        expect((await blobs.get(changes[0].before!))!.toString()).to.equal('A\n');
    });

    it('fails, not falling back to reading the files, when git fails after saying the contents were kept', async () => {
        const first = await snapshotter.take(folder);
        const gitDir = first.kind === 'git' ? first.gitDir : '';
        write('a.txt', 'new content for a new blob\n');
        // Its objects gone, git cannot write the tree; the folder may have changed since "recorded": no file-by-file snapshot now.
        const failed = await snapshotter.take(folder, [], () => fs.rmSync(path.join(gitDir, 'objects'), { recursive: true, force: true }))
            .then(() => undefined, (error: Error) => error);
        expect(failed?.message).to.match(/write-tree/);
        expect(warnings.filter(warning => /reading its files instead/.test(warning))).to.deep.equal([]);
    });
});
