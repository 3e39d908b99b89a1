import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readFileBounded } from './read-file-bounded';
import { readFileWithinRoots } from './file-within-roots';
import { expectStillServing, HostileFiles, within } from './test/hostile-files';

describe('readFileBounded', () => {
    let base: string;
    let ws: string;
    const hostile = new HostileFiles();
    const file = (name: string) => path.join(ws, name);

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'read-file-bounded-spec-')));
        ws = path.join(base, 'ws');
        fs.mkdirSync(ws);
        fs.writeFileSync(file('notes.md'), 'notes\n');
        fs.writeFileSync(path.join(base, 'secret'), 'secret\n');
    });

    afterEach(() => {
        hostile.release();
        fs.rmSync(base, { recursive: true, force: true });
    });

    it('reads a regular file inside the roots, and says absent for a missing one', async () => {
        expect(await readFileBounded(file('notes.md'), { roots: [ws], maxBytes: 100 })).to.deep.include({ kind: 'content', content: Buffer.from('notes\n') });
        expect(await readFileBounded(file('missing.md'), { roots: [ws], maxBytes: 100 })).to.deep.equal({ kind: 'absent' });
        expect(await readFileBounded(path.join(file('notes.md'), 'below'), { roots: [ws], maxBytes: 100 })).to.deep.equal({ kind: 'absent' });
    });

    it('never reads a named pipe, a link to /dev/zero or a device, and returns at once while the process keeps serving', async () => {
        const pipes = [1, 2, 3, 4, 5].map(n => hostile.pipe(file(`pipe-${n}`)));
        const reads = await within(1000, 'five reads of named pipes', Promise.all(pipes.map(pipe => readFileBounded(pipe, { roots: [ws], maxBytes: 1 << 20 }))));
        expect(reads.map(read => read.kind === 'unreadable' && read.cause)).to.deep.equal(Array(5).fill('not-regular'));
        await expectStillServing(file('notes.md'));

        hostile.linkToDevZero(file('zero'));
        const zero = readFileBounded(file('zero'), { roots: [ws], maxBytes: 1 << 20 });
        expect(await within(1000, 'a read of a link to /dev/zero', zero)).to.include({ kind: 'unreadable', cause: 'link' });
        // Followed, the link leads out of the roots; without roots it lands on a device, which is never opened.
        expect(await readFileBounded(file('zero'), { roots: [ws], maxBytes: 1 << 20, followLink: true })).to.include({ kind: 'unreadable', cause: 'outside' });
        expect(await readFileBounded(file('zero'), { maxBytes: 1 << 20, followLink: true })).to.include({ kind: 'unreadable', cause: 'not-regular' });
        expect(await readFileBounded('/dev/zero', { maxBytes: 1 << 20 })).to.include({ kind: 'unreadable', cause: 'not-regular' });
        await expectStillServing(file('notes.md'));
    });

    it('refuses a file over the cap, unread, and one that grows past it while being read', async () => {
        fs.writeFileSync(file('big.bin'), Buffer.alloc(101));
        expect(await readFileBounded(file('big.bin'), { maxBytes: 100 })).to.include({ kind: 'unreadable', cause: 'too-large' });
        expect(await readFileBounded(file('big.bin'), { maxBytes: 101 })).to.include({ kind: 'content' });
        // /proc files say size 0 and hold more: the read itself stops at the cap.
        expect(await readFileBounded('/proc/self/status', { maxBytes: 10 })).to.include({ kind: 'unreadable', cause: 'too-large' });
    });

    it('judges where the file lands: a link out of the roots, or a folder on the way that leads out, is refused', async () => {
        fs.symlinkSync(path.join(base, 'secret'), file('link'));
        fs.symlinkSync(base, file('up'));
        fs.symlinkSync(file('notes.md'), file('inside-link'));
        expect(await readFileBounded(file('link'), { roots: [ws], maxBytes: 100, followLink: true })).to.include({ kind: 'unreadable', cause: 'outside' });
        expect(await readFileBounded(file('link'), { roots: [ws], maxBytes: 100 })).to.include({ kind: 'unreadable', cause: 'link' });
        expect(await readFileBounded(path.join(file('up'), 'secret'), { roots: [ws], maxBytes: 100 })).to.include({ kind: 'unreadable', cause: 'outside' });
        expect(await readFileBounded(file('inside-link'), { roots: [ws], maxBytes: 100, followLink: true })).to.deep.include({ kind: 'content', content: Buffer.from('notes\n') });
    });

    it('readFileWithinRoots: refuses a pipe and a link out of the roots with an error, at once', async () => {
        hostile.pipe(file('pipe'));
        fs.symlinkSync('/dev/zero', file('zero'));
        const refusal = (promise: Promise<unknown>) => within(1000, 'a refused read', promise.then(() => undefined, (error: Error) => error));
        expect((await refusal(readFileWithinRoots(file('pipe'), [ws], 100)))?.message).to.match(/pipe is not a regular file \(a named pipe\)/);
        expect((await refusal(readFileWithinRoots(file('zero'), [ws], 100)))?.name).to.equal('OutsideRootsError');
        expect(await readFileWithinRoots(file('missing'), [ws], 100)).to.equal(undefined);
    });
});
