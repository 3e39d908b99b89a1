import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { ensurePrivateDirectory, removeFileSync, temporaryFileWriterPid, temporaryNameFor, writePrivateFileAtomic } from './private-file';
import { useTemporaryHome } from './test/temporary-home';

type FileHandle = fs.promises.FileHandle;

/**
 * Runs `run` with fs.promises.open, mkdir and rename replaced by versions that log, in order, what
 * the code under test does and the mode of what it created at that moment. The module calls them
 * through the shared `fs.promises` object, so the replacements see every call.
 */
async function recordFileSystem(run: () => Promise<void>): Promise<string[]> {
    const promises = fs.promises;
    const { open, mkdir, rename } = promises;
    const events: string[] = [];
    const modeOf = async (handle: FileHandle) => ((await handle.stat()).mode & 0o777).toString(8);
    promises.open = (async (file: fs.PathLike, flags?: string | number, mode?: fs.Mode) => {
        const handle = await open(file, flags, mode);
        const exclusive = typeof flags === 'number' && (flags & fs.constants.O_CREAT) !== 0 && (flags & fs.constants.O_EXCL) !== 0;
        events.push(`open ${path.basename(String(file))}${exclusive ? ' exclusive' : ''} mode ${await modeOf(handle)}`);
        const { writeFile, sync } = handle;
        handle.writeFile = async (...args: Parameters<FileHandle['writeFile']>) => {
            events.push(`write at mode ${await modeOf(handle)}`);
            return writeFile.apply(handle, args);
        };
        handle.sync = async () => {
            events.push('sync');
            return sync.apply(handle);
        };
        return handle;
    }) as typeof promises.open;
    promises.mkdir = (async (dir: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
        const first = await mkdir(dir, options as fs.MakeDirectoryOptions & { recursive: true });
        for (let created = String(dir); first && created.length >= first.length; created = path.dirname(created)) {
            events.push(`mkdir ${path.basename(created)} mode ${(fs.statSync(created).mode & 0o777).toString(8)}`);
        }
        return first;
    }) as typeof promises.mkdir;
    promises.rename = async (from: fs.PathLike, to: fs.PathLike) => {
        events.push(`rename to ${path.basename(String(to))}`);
        return rename(from, to);
    };
    const umask = process.umask(0);
    try {
        await run();
    } finally {
        process.umask(umask);
        Object.assign(promises, { open, mkdir, rename });
    }
    return events;
}

describe('private-file', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    beforeEach(() => home = useTemporaryHome());
    afterEach(() => home.restore());

    it('creates missing directories with mode 0700 and tightens an existing one of ours', async () => {
        const dir = path.join(home.dir, 'a', 'b');
        await ensurePrivateDirectory(dir);
        expect(fs.statSync(dir).mode & 0o777).to.equal(0o700);
        fs.chmodSync(dir, 0o755);
        await ensurePrivateDirectory(dir);
        expect(fs.statSync(dir).mode & 0o777).to.equal(0o700);
    });

    it('refuses a symbolic link in place of the directory', async () => {
        const target = path.join(home.dir, 'elsewhere');
        fs.mkdirSync(target);
        const link = path.join(home.dir, 'link');
        fs.symlinkSync(target, link);
        let error: Error | undefined;
        await ensurePrivateDirectory(link).catch(e => error = e);
        expect(error?.message).to.match(/not a directory/);
    });

    it('writes files with mode 0600 regardless of the umask, and replaces them whole', async () => {
        const file = path.join(home.dir, 'f.json');
        const previous = process.umask(0);
        try {
            await writePrivateFileAtomic(file, 'one');
        } finally {
            process.umask(previous);
        }
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        await writePrivateFileAtomic(file, 'two');
        expect(fs.readFileSync(file, 'utf8')).to.equal('two');
        expect(fs.readdirSync(home.dir).filter(name => name.endsWith('.tmp'))).to.deep.equal([]);
    });

    it('never lets a reader see a partial file while writing', async () => {
        const file = path.join(home.dir, 'big.json');
        const bodies = ['a', 'b', 'c', 'd'].map(c => JSON.stringify({ fill: c.repeat(512 * 1024) }));
        await writePrivateFileAtomic(file, bodies[0]);
        let reads = 0;
        let writing = true;
        const reader = (async () => {
            while (writing) {
                const text = fs.readFileSync(file, 'utf8');
                expect(bodies).to.include(text);
                reads++;
                await new Promise(resolve => setImmediate(resolve));
            }
        })();
        for (let i = 0; i < 20; i++) {
            await writePrivateFileAtomic(file, bodies[i % bodies.length]);
        }
        writing = false;
        await reader;
        expect(reads).to.be.greaterThan(0);
    });

    it('names temporary files so that no discovery pattern matches and the writer can be found', () => {
        const name = path.basename(temporaryNameFor('/x/gemini-ide-server-1-2.json'));
        expect(name).to.not.match(/^gemini-ide-server-(\d+)-\d+\.json$/);
        expect(path.basename(temporaryNameFor('/x/1234.lock'))).to.not.match(/^\d+\.lock$/);
        expect(temporaryFileWriterPid(name)).to.equal(process.pid);
        expect(temporaryFileWriterPid('gemini-ide-server-1-2.json')).to.equal(undefined);
    });

    it('removes synchronously and reports whether there was a file', () => {
        const file = path.join(home.dir, 'gone');
        fs.writeFileSync(file, 'x');
        expect(removeFileSync(file)).to.equal(true);
        expect(removeFileSync(file)).to.equal(false);
    });

    it('creates the temporary file exclusively and 0600 before its first byte, syncs it, then renames it into place (umask 0)', async () => {
        const file = path.join(home.dir, 'secret.json');
        fs.writeFileSync(file, 'old');
        const events = await recordFileSystem(() => writePrivateFileAtomic(file, '{"authToken":"x"}'));
        const temporary = events[0].split(' ')[1];
        expect(temporary).to.not.equal('secret.json');
        expect(temporaryFileWriterPid(temporary)).to.equal(process.pid);
        expect(events).to.deep.equal([`open ${temporary} exclusive mode 600`, 'write at mode 600', 'sync', 'rename to secret.json']);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        expect(fs.readFileSync(file, 'utf8')).to.equal('{"authToken":"x"}');
    });

    it('skips only the sync when asked for a write that need not be durable: still exclusive, 0600 and renamed whole', async () => {
        const file = path.join(home.dir, 'config');
        const events = await recordFileSystem(() => writePrivateFileAtomic(file, '[core]\n', { durable: false }));
        const temporary = events[0].split(' ')[1];
        expect(events).to.deep.equal([`open ${temporary} exclusive mode 600`, 'write at mode 600', 'rename to config']);
        expect(fs.readFileSync(file, 'utf8')).to.equal('[core]\n');
    });

    it('creates missing directories 0700 from the start, not tightened afterwards (umask 0)', async () => {
        const dir = path.join(home.dir, 'first', 'second');
        const events = await recordFileSystem(() => ensurePrivateDirectory(dir));
        expect(events).to.deep.equal(['mkdir second mode 700', 'mkdir first mode 700']);
    });

    it('refuses a directory that belongs to another user, and writes nothing into it', async function (): Promise<void> {
        if (process.getuid?.() !== 0) {
            // Only root can give a directory to another uid. CI runs as root, where this never skips.
            this.skip();
        }
        const dir = path.join(home.dir, 'planted');
        fs.mkdirSync(dir, { mode: 0o700 });
        fs.chownSync(dir, 65534, 65534);
        let error: Error | undefined;
        await ensurePrivateDirectory(dir).catch(e => error = e);
        expect(error?.message).to.equal(`${dir} belongs to uid 65534, not to this user (uid 0); refusing to write a secret there`);
        expect(fs.readdirSync(dir)).to.deep.equal([]);
    });
});
