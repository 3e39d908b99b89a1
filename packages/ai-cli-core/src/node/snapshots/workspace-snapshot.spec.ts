import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HostileFiles, within } from '@theia-cli-companion/safe-files/lib/node/test';
import { BlobStore } from './blob-store';
import { DEFAULT_SNAPSHOT_LIMITS, compareSnapshots, takeSnapshot } from './workspace-snapshot';

describe('workspace snapshots', () => {
    let root: string;
    let folder: string;
    let blobs: BlobStore;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-task-snapshot-')));
        folder = path.join(root, 'ws');
        blobs = new BlobStore(path.join(root, 'blobs'));
        const write = (relative: string, content: string | Buffer) => {
            fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
            fs.writeFileSync(path.join(folder, relative), content);
        };
        write('a.txt', 'A\n');
        write('src/b.ts', 'export const b = 1;\n');
        write('gone.md', 'bye\n');
        write('image.bin', Buffer.from([0, 1, 2, 3]));
        write('.git/HEAD', 'ref: refs/heads/main\n');
        write('node_modules/x/index.js', 'module.exports = 1;\n');
    });

    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it('lists added, modified and deleted files with their earlier content, skipping .git and node_modules', async () => {
        const before = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS);
        expect([...before.files.keys()].sort()).to.deep.equal(['a.txt', 'gone.md', 'image.bin', 'src/b.ts']);
        fs.writeFileSync(path.join(folder, 'src/b.ts'), 'export const b = 2;\n');
        fs.rmSync(path.join(folder, 'gone.md'));
        fs.writeFileSync(path.join(folder, 'new.txt'), 'new\n');
        fs.writeFileSync(path.join(folder, '.git/HEAD'), 'ref: refs/heads/other\n');
        const after = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS, before);
        const changes = compareSnapshots(before, after);
        expect(changes.map(change => [change.relativePath, change.kind, change.reviewable])).to.deep.equal([
            ['gone.md', 'deleted', true], ['new.txt', 'added', true], ['src/b.ts', 'modified', true]
        ]);
        expect((await blobs.get(changes[0].before!))!.toString()).to.equal('bye\n');
        expect((await blobs.get(changes[2].before!))!.toString()).to.equal('export const b = 1;\n');
        expect(changes[2].path).to.equal(path.join(folder, 'src', 'b.ts'));
        expect(before.files.get('image.bin')!.binary).to.equal(true);
        expect(fs.statSync(path.join(root, 'blobs')).mode & 0o777).to.equal(0o700);
    });

    it('lists a recorded file that became a named pipe as changed and not restorable, unread; a new pipe is no file', async () => {
        const hostile = new HostileFiles();
        try {
            const before = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS);
            hostile.pipe(path.join(folder, 'a.txt'));
            hostile.pipe(path.join(folder, 'fresh.pipe'));
            fs.writeFileSync(path.join(folder, 'new.txt'), 'new\n');
            const after = await within(1000, 'a snapshot with named pipes', takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS, before));
            expect(compareSnapshots(before, after).map(change => [change.relativePath, change.kind, change.reviewable, change.unreadable])).to.deep.equal([
                ['a.txt', 'modified', false, 'it is now a named pipe, which is never read'], ['new.txt', 'added', true, undefined]
            ]);
            fs.rmSync(path.join(folder, 'a.txt'));
            fs.writeFileSync(path.join(folder, 'a.txt'), 'A again\n');
            const later = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS, after);
            expect(compareSnapshots(after, later).map(change => [change.relativePath, change.kind, change.unreadable])).to.deep.equal([
                ['a.txt', 'modified', 'it could not be read at the earlier snapshot (it is now a named pipe, which is never read)']
            ]);
        } finally {
            hostile.release();
        }
    });

    it('sees a same-size rewrite within the same second (no stale reuse of the earlier hash)', async () => {
        const before = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS);
        const file = path.join(folder, 'a.txt');
        const { mtime } = fs.statSync(file);
        fs.writeFileSync(file, 'B\n');
        fs.utimesSync(file, mtime, mtime);
        const after = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS, before);
        expect(compareSnapshots(before, after).map(change => change.relativePath)).to.deep.equal(['a.txt']);
    });

    it('reuses the hash of a file unchanged since an older snapshot without reading it', async () => {
        const old = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS);
        const aged = { ...old, files: new Map(old.files), takenAt: old.takenAt + 60_000 };
        // A hash only the previous snapshot knows: getting it back proves the file was not read again.
        const cached = await blobs.put(Buffer.from('what the cache says'));
        aged.files.set('a.txt', { ...aged.files.get('a.txt')!, sha: cached });
        const next = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS, aged);
        expect(next.files.get('a.txt')!.sha).to.equal(cached);
        expect(next.files.get('src/b.ts')!.sha).to.equal(old.files.get('src/b.ts')!.sha);
        // Without the previous snapshot the file is read: its real hash.
        expect((await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS)).files.get('a.txt')!.sha).to.equal(old.files.get('a.txt')!.sha);
    });

    it('records files named __proto__, constructor and toString, and sees each one change, go and come', async () => {
        const prototypeBefore = Object.getOwnPropertyDescriptors(Object.prototype);
        for (const name of ['__proto__', 'constructor', 'toString']) {
            fs.writeFileSync(path.join(folder, name), `${name} before\n`);
        }
        const before = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS);
        expect([...before.files.keys()].sort()).to.deep.equal(['__proto__', 'a.txt', 'constructor', 'gone.md', 'image.bin', 'src/b.ts', 'toString']);
        fs.writeFileSync(path.join(folder, '__proto__'), '__proto__ after\n');
        fs.writeFileSync(path.join(folder, 'constructor'), 'constructor after\n');
        fs.rmSync(path.join(folder, 'toString'));
        fs.writeFileSync(path.join(folder, 'valueOf'), 'valueOf new\n');
        const after = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS, before);
        const changes = compareSnapshots(before, after);
        expect(changes.map(change => [change.relativePath, change.kind, change.reviewable])).to.deep.equal([
            ['__proto__', 'modified', true], ['constructor', 'modified', true], ['toString', 'deleted', true], ['valueOf', 'added', true]
        ]);
        for (const change of changes.filter(each => each.kind !== 'added')) {
            expect((await blobs.get(change.before!))!.toString(), change.relativePath).to.equal(`${change.relativePath} before\n`);
        }
        expect(Object.getOwnPropertyDescriptors(Object.prototype)).to.deep.equal(prototypeBefore);
    });

    it('keeps the content of a .env file in blobs only the user can read (0600 in 0700), whatever the umask', async () => {
        fs.writeFileSync(path.join(folder, '.env'), 'API_KEY=secret\n');
        const umask = process.umask(0);
        try {
            const snapshot = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS);
            const blob = path.join(blobs.dir, snapshot.files.get('.env')!.sha!);
            expect(fs.readFileSync(blob, 'utf8')).to.equal('API_KEY=secret\n');
            expect(fs.statSync(blob).mode & 0o777, 'the blob').to.equal(0o600);
            expect(fs.statSync(blobs.dir).mode & 0o777, 'the blob directory').to.equal(0o700);
            expect(fs.readdirSync(blobs.dir).filter(name => name.startsWith('.')), 'temporary files left').to.deep.equal([]);
        } finally {
            process.umask(umask);
        }
    });

    it('keeps files over the size limit out of review, and says when the file limit cut the snapshot', async () => {
        const limits = { ...DEFAULT_SNAPSHOT_LIMITS, maxFileBytes: 10, maxFiles: 3 };
        const before = await takeSnapshot(folder, blobs, limits);
        expect(before.truncated).to.equal(true);
        expect(before.files.size).to.equal(3);
        const roomy = { ...limits, maxFiles: 100 };
        const first = await takeSnapshot(folder, blobs, roomy);
        fs.writeFileSync(path.join(folder, 'src/b.ts'), 'export const b = 22;\n');
        const second = await takeSnapshot(folder, blobs, roomy, first);
        const [change] = compareSnapshots(first, second);
        expect(change).to.deep.include({ relativePath: 'src/b.ts', kind: 'modified', reviewable: false });
    });
});
