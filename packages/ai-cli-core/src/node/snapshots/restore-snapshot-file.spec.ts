import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { expectStillServing, HostileFiles, within } from '@theia-cli-companion/safe-files/lib/node/test';
import { BlobStore } from './blob-store';
import { restoreSnapshotFile } from './restore-snapshot-file';

describe('restoreSnapshotFile', () => {
    let base: string;
    let ws: string;
    let blobs: BlobStore;
    const hostile = new HostileFiles();
    const file = (name: string) => path.join(ws, name);

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'restore-snapshot-file-spec-')));
        ws = path.join(base, 'ws');
        fs.mkdirSync(ws);
        blobs = new BlobStore(path.join(base, 'blobs'));
        fs.writeFileSync(file('keep.txt'), 'untouched\n');
    });

    afterEach(() => {
        hostile.release();
        fs.rmSync(base, { recursive: true, force: true });
    });

    it('puts recorded content back when the file holds what was expected, and names a file changed since', async () => {
        const before = await blobs.put(Buffer.from('before\n'));
        const after = await blobs.put(Buffer.from('after\n'));
        fs.writeFileSync(file('a.txt'), 'after\n');
        expect(await restoreSnapshotFile({ file: file('a.txt'), target: { sha: before }, expected: before, force: false }, blobs, [ws])).to.deep.equal({ kind: 'changed-since' });
        expect(await restoreSnapshotFile({ file: file('a.txt'), target: { sha: before }, expected: after, force: false }, blobs, [ws])).to.deep.equal({ kind: 'restored' });
        expect(fs.readFileSync(file('a.txt'), 'utf8')).to.equal('before\n');
    });

    it('over named pipes says "changed since" within a second, five at once (agent-task revert, re-apply), and an unrelated read still completes', async () => {
        const before = await blobs.put(Buffer.from('before\n'));
        const pipes = [1, 2, 3, 4, 5].map(n => hostile.pipe(file(`p${n}.txt`)));
        const restores = Promise.all(pipes.map(pipe => restoreSnapshotFile({ file: pipe, target: { sha: before }, expected: undefined, force: false }, blobs, [ws])));
        expect(await within(1000, 'five restores over named pipes', restores)).to.deep.equal(Array(5).fill({ kind: 'changed-since' }));
        await expectStillServing(file('keep.txt'));
        expect(pipes.every(pipe => fs.lstatSync(pipe).isFIFO())).to.equal(true);
    });

    it('over a link to /dev/zero says "changed since" within a second, unread, and leaves the link', async () => {
        const before = await blobs.put(Buffer.from('before\n'));
        hostile.linkToDevZero(file('a.txt'));
        const restore = restoreSnapshotFile({ file: file('a.txt'), target: { sha: before }, expected: undefined, force: false }, blobs, [ws]);
        expect(await within(1000, 'a restore over a link to /dev/zero', restore)).to.deep.equal({ kind: 'changed-since' });
        await expectStillServing(file('keep.txt'));
        expect(fs.readlinkSync(file('a.txt'))).to.equal('/dev/zero');
    });
});
