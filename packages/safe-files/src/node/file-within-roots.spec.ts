import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OutsideRootsError, removeFileWithinRoots, writeFileWithinRoots } from './file-within-roots';

/** Writes and removals that land inside the roots only, judged where the path really leads. */
describe('file-within-roots', () => {
    let base: string;
    let ws: string;
    let outside: string;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'file-within-roots-spec-')));
        ws = path.join(base, 'ws');
        outside = path.join(base, 'outside');
        fs.mkdirSync(ws);
        fs.mkdirSync(outside);
    });

    afterEach(() => {
        fs.rmSync(base, { recursive: true, force: true });
    });

    const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => error);

    it('writes a new file (its folders too), keeps an existing file\'s mode, and leaves no temporary file', async () => {
        const file = path.join(ws, 'a', 'b', 'new.txt');
        expect(await writeFileWithinRoots(file, 'one\n', [ws])).to.equal(file);
        expect(fs.readFileSync(file, 'utf8')).to.equal('one\n');
        fs.chmodSync(file, 0o640);
        await writeFileWithinRoots(file, 'two\n', [ws]);
        expect(fs.readFileSync(file, 'utf8')).to.equal('two\n');
        expect(fs.statSync(file).mode & 0o777).to.equal(0o640);
        await writeFileWithinRoots(file, 'three\n', [ws], 0o600);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        expect(fs.readdirSync(path.dirname(file))).to.deep.equal(['new.txt']);
    });

    it('writes through a link that lands inside to where it lands, keeping the link', async () => {
        fs.symlinkSync('real.md', path.join(ws, 'alias.md'));
        expect(await writeFileWithinRoots(path.join(ws, 'alias.md'), 'hi\n', [ws])).to.equal(path.join(ws, 'real.md'));
        expect(fs.lstatSync(path.join(ws, 'alias.md')).isSymbolicLink()).to.equal(true);
        expect(fs.readFileSync(path.join(ws, 'real.md'), 'utf8')).to.equal('hi\n');
    });

    it('refuses a dangling link to outside and a folder swapped for a link, creating nothing outside', async () => {
        fs.symlinkSync('../outside/authorized_keys', path.join(ws, 'notes.md'));
        fs.symlinkSync('../outside/later', path.join(ws, 'cache'));
        fs.symlinkSync(outside, path.join(ws, 'docs'));
        for (const file of [path.join(ws, 'notes.md'), path.join(ws, 'cache', 'x'), path.join(ws, 'docs', 'y')]) {
            const error = await refusal(writeFileWithinRoots(file, 'attacker\n', [ws]));
            expect(error, file).to.be.instanceOf(OutsideRootsError);
            expect(error?.message).to.match(/is outside the workspace folders .*\(it leads to .*\); refused$/);
        }
        expect(fs.readdirSync(outside)).to.deep.equal([]);
    });

    it('refuses at the last moment when the folder is swapped for a link while the file is being written', async () => {
        fs.mkdirSync(path.join(ws, 'docs'));
        fs.writeFileSync(path.join(ws, 'docs', 'notes.md'), 'before\n');
        const open = fs.promises.open;
        // The swap happens after the path was judged, just before the temporary file is created: it is
        // created through the link, outside, and renaming it would put the file there.
        fs.promises.open = (async (...args: Parameters<typeof open>) => {
            fs.renameSync(path.join(ws, 'docs'), path.join(base, 'docs-moved'));
            fs.symlinkSync(outside, path.join(ws, 'docs'));
            return open(...args);
        }) as typeof open;
        let error: Error | undefined;
        try {
            error = await refusal(writeFileWithinRoots(path.join(ws, 'docs', 'notes.md'), 'attacker\n', [ws]));
        } finally {
            fs.promises.open = open;
        }
        expect(error).to.be.instanceOf(OutsideRootsError);
        expect(error?.message).to.match(/its folder .* was replaced \(it now leads to .*outside\) while being written; refused$/);
        expect(fs.readdirSync(outside), 'nothing written outside, the temporary file removed').to.deep.equal([]);
        expect(fs.readdirSync(path.join(base, 'docs-moved'))).to.deep.equal(['notes.md']);
        expect(fs.readFileSync(path.join(base, 'docs-moved', 'notes.md'), 'utf8')).to.equal('before\n');
    });

    it('removes a file, or the link in its place (never what it points to), and refuses through a swapped folder', async () => {
        fs.writeFileSync(path.join(outside, 'precious'), 'keep\n');
        fs.symlinkSync(path.join(outside, 'precious'), path.join(ws, 'link'));
        await removeFileWithinRoots(path.join(ws, 'link'), [ws]);
        expect(fs.existsSync(path.join(ws, 'link'))).to.equal(false);
        await removeFileWithinRoots(path.join(ws, 'gone'), [ws]);
        fs.symlinkSync(outside, path.join(ws, 'docs'));
        expect(await refusal(removeFileWithinRoots(path.join(ws, 'docs', 'precious'), [ws]))).to.be.instanceOf(OutsideRootsError);
        expect(fs.readFileSync(path.join(outside, 'precious'), 'utf8')).to.equal('keep\n');
    });
});
