import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BlobStore } from './blob-store';
import { GitSnapshotEngine, GitTreeSnapshot } from './git-snapshot-engine';
import { PrivateGitRepository } from './private-git-repository';
import { WorkspaceSnapshotter } from './workspace-snapshotter';

describe('PrivateGitRepository: which git runs', function (): void {
    this.timeout(30000);
    let root: string;
    let folder: string;
    let savedPath: string | undefined;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'private-git-')));
        folder = path.join(root, 'repository');
        fs.mkdirSync(folder);
        fs.writeFileSync(path.join(folder, 'README.md'), 'hello\n');
        // The repository's own `git`: it would leave a marker and answer like a git that recorded nothing.
        fs.writeFileSync(path.join(folder, 'git'), `#!/bin/sh\necho ran >> "${path.join(root, 'marker')}"\n`, { mode: 0o755 });
        savedPath = process.env.PATH;
    });

    afterEach(() => {
        if (savedPath === undefined) {
            delete process.env.PATH;
        } else {
            process.env.PATH = savedPath;
        }
        fs.rmSync(root, { recursive: true, force: true });
    });

    it('snapshots with git found on the absolute PATH entries: "." or an empty entry first never runs the folder\'s own git', async () => {
        for (const first of ['.', '']) {
            process.env.PATH = [first, savedPath].join(path.delimiter);
            const store = path.join(root, `store${first}`);
            const snapshotter = new WorkspaceSnapshotter({ gitDir: path.join(store, 'git'), blobs: new BlobStore(path.join(store, 'blobs')), warn: () => undefined });
            const before = await snapshotter.take(folder);
            fs.writeFileSync(path.join(folder, 'README.md'), `changed after "${first}"\n`);
            const after = await snapshotter.take(folder);
            expect(before.kind, `PATH starting with "${first}"`).to.equal('git');
            expect(fs.existsSync(path.join(root, 'marker')), `the folder's git ran (PATH starting with "${first}")`).to.equal(false);
            expect((await snapshotter.compare(before, after)).map(change => change.relativePath)).to.deep.equal(['README.md']);
        }
        expect(path.isAbsolute((await PrivateGitRepository.executable(['.', savedPath].join(path.delimiter)))!)).to.equal(true);
        expect(await PrivateGitRepository.executable(['.', ''].join(path.delimiter)), 'only relative entries: no git').to.equal(undefined);
    });

    it('runs git from the spawn helper, not forked from this (possibly large) process', async () => {
        // A `git` that answers with its parent's PID, on an absolute PATH entry of its own.
        const bin = path.join(root, 'bin');
        fs.mkdirSync(bin);
        fs.writeFileSync(path.join(bin, 'git'), '#!/bin/sh\necho "$PPID"\n', { mode: 0o755 });
        process.env.PATH = [bin, savedPath].join(path.delimiter);
        const parent = Number((await new PrivateGitRepository(path.join(root, 'private'), folder).git(['--version'])).toString());
        expect(parent).to.be.greaterThan(1).and.not.equal(process.pid);
        expect(fs.readFileSync(`/proc/${parent}/cmdline`, 'utf8')).to.include('spawn-helper-main.js');
    });

    it('lays out a new directory itself (no `git init`), asks git for skip bits only when the index has some, and rewrites an emptied HEAD', async () => {
        // A `git` that logs its command, then runs the real one.
        const bin = path.join(root, 'bin');
        const log = path.join(root, 'commands');
        fs.mkdirSync(bin);
        const real = (await PrivateGitRepository.executable(savedPath))!;
        fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$1" >> "${log}"\nexec "${real}" "$@"\n`, { mode: 0o755 });
        const env = { PATH: savedPath, HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
        execFileSync(real, ['init', '-q'], { cwd: folder, env });
        execFileSync(real, ['add', 'README.md'], { cwd: folder, env });
        process.env.PATH = [bin, savedPath].join(path.delimiter);
        const commands = () => fs.readFileSync(log, 'utf8').trim().split('\n').filter(command => command !== '--version');
        const take = (store: string) => new WorkspaceSnapshotter({
            gitDir: path.join(root, store, 'git'), blobs: new BlobStore(path.join(root, store, 'blobs')), warn: () => undefined
        }).take(folder);

        const first = await take('clean');
        expect(first.kind).to.equal('git');
        expect(commands()).to.deep.equal(['add', 'write-tree']);

        fs.rmSync(log);
        execFileSync(real, ['update-index', '--assume-unchanged', 'README.md'], { cwd: folder, env });
        await take('flagged');
        expect(commands()).to.deep.equal(['ls-files', 'update-index', 'update-index', 'add', 'write-tree']);

        // A crash right after HEAD was created may leave it empty: git would not take the directory for a repository.
        // Other settings than this process prepared it with: prepared again, as by the next process.
        const gitDir = (first as GitTreeSnapshot).gitDir;
        fs.writeFileSync(path.join(gitDir, 'HEAD'), '');
        fs.writeFileSync(path.join(folder, 'README.md'), 'changed\n');
        const engine = new GitSnapshotEngine(path.dirname(gitDir));
        const after = await engine.take(folder, { excludes: ['*.log'], include: [] });
        expect(after.tree).to.not.equal((first as GitTreeSnapshot).tree);
        expect(fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8')).to.equal('ref: refs/heads/main\n');
    });
});
