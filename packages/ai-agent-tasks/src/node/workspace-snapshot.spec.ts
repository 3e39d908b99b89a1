import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
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
        expect(Object.keys(before.files).sort()).to.deep.equal(['a.txt', 'gone.md', 'image.bin', 'src/b.ts']);
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
        expect(before.files['image.bin'].binary).to.equal(true);
        expect(fs.statSync(path.join(root, 'blobs')).mode & 0o777).to.equal(0o700);
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
        const aged = { ...old, files: { ...old.files }, takenAt: old.takenAt + 60_000 };
        // A hash only the previous snapshot knows: getting it back proves the file was not read again.
        const cached = await blobs.put(Buffer.from('what the cache says'));
        aged.files['a.txt'] = { ...aged.files['a.txt'], sha: cached };
        const next = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS, aged);
        expect(next.files['a.txt'].sha).to.equal(cached);
        expect(next.files['src/b.ts'].sha).to.equal(old.files['src/b.ts'].sha);
        // Without the previous snapshot the file is read: its real hash.
        expect((await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS)).files['a.txt'].sha).to.equal(old.files['a.txt'].sha);
    });

    it('keeps files over the size limit out of review, and says when the file limit cut the snapshot', async () => {
        const limits = { ...DEFAULT_SNAPSHOT_LIMITS, maxFileBytes: 10, maxFiles: 3 };
        const before = await takeSnapshot(folder, blobs, limits);
        expect(before.truncated).to.equal(true);
        expect(Object.keys(before.files)).to.have.length(3);
        const roomy = { ...limits, maxFiles: 100 };
        const first = await takeSnapshot(folder, blobs, roomy);
        fs.writeFileSync(path.join(folder, 'src/b.ts'), 'export const b = 22;\n');
        const second = await takeSnapshot(folder, blobs, roomy, first);
        const [change] = compareSnapshots(first, second);
        expect(change).to.deep.include({ relativePath: 'src/b.ts', kind: 'modified', reviewable: false });
    });
});
