import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { ensurePrivateDirectory, removeFileSync, temporaryFileWriterPid, temporaryNameFor, writePrivateFileAtomic } from './private-file';
import { useTemporaryHome } from './test/temporary-home';

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
});
