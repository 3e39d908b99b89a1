import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkInsideRoots, describeRefusal, isInsideRoots, MAX_SYMBOLIC_LINKS, resolveLanding } from './workspace-boundary';

/** Paths judged by where they really land: links followed, dangling ones too, refused when that cannot be told. */
describe('workspace-boundary', () => {
    let base: string;
    let ws: string;
    let outside: string;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-boundary-spec-')));
        ws = path.join(base, 'ws');
        outside = path.join(base, 'home', '.ssh');
        fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
        fs.mkdirSync(outside, { recursive: true });
    });

    afterEach(() => {
        fs.chmodSync(ws, 0o755);
        fs.rmSync(base, { recursive: true, force: true });
    });

    it('allows a normal new file, also in folders that do not exist yet', async () => {
        expect(await isInsideRoots(path.join(ws, 'src', 'new.ts'), [ws])).to.equal(true);
        expect(await resolveLanding(path.join(ws, 'a', 'b', 'c.ts'))).to.equal(path.join(ws, 'a', 'b', 'c.ts'));
        expect(await isInsideRoots(path.join(ws, 'a', '..', '..', 'ws2', 'x'), [ws])).to.equal(false);
    });

    it('refuses a dangling link that points outside (the file it names does not exist yet)', async () => {
        const notes = path.join(ws, 'notes.md');
        fs.symlinkSync('../home/.ssh/authorized_keys', notes);
        const verdict = await checkInsideRoots(notes, [ws]);
        expect(verdict).to.deep.equal({ inside: false, realPath: path.join(outside, 'authorized_keys') });
        expect(describeRefusal(notes, verdict, [ws])).to.equal(`is outside the workspace folders (${ws}) (it leads to ${path.join(outside, 'authorized_keys')})`);
        expect(fs.existsSync(path.join(outside, 'authorized_keys'))).to.equal(false);
    });

    it('allows a dangling link that points inside', async () => {
        const link = path.join(ws, 'later.md');
        fs.symlinkSync(path.join(ws, 'src', 'later.md'), link);
        expect(await checkInsideRoots(link, [ws])).to.deep.equal({ inside: true, realPath: path.join(ws, 'src', 'later.md') });
    });

    it('follows a chain of links, relative to each link\'s folder', async () => {
        fs.mkdirSync(path.join(ws, 'deep', 'er'), { recursive: true });
        fs.symlinkSync('../../hop2', path.join(ws, 'deep', 'er', 'hop1'));
        fs.symlinkSync('deep/hop3', path.join(ws, 'hop2'));
        fs.symlinkSync('../../home/.ssh/config', path.join(ws, 'deep', 'hop3'));
        expect(await checkInsideRoots(path.join(ws, 'deep', 'er', 'hop1'), [ws]))
            .to.deep.equal({ inside: false, realPath: path.join(outside, 'config') });
        fs.unlinkSync(path.join(ws, 'deep', 'hop3'));
        fs.symlinkSync('../src/target.ts', path.join(ws, 'deep', 'hop3'));
        expect(await checkInsideRoots(path.join(ws, 'deep', 'er', 'hop1'), [ws])).to.deep.equal({ inside: true, realPath: path.join(ws, 'src', 'target.ts') });
    });

    it('refuses a loop of links as ELOOP, with the reason', async () => {
        fs.symlinkSync('b', path.join(ws, 'a'));
        fs.symlinkSync('a', path.join(ws, 'b'));
        const verdict = await checkInsideRoots(path.join(ws, 'a'), [ws]);
        expect(verdict.inside).to.equal(false);
        expect('problem' in verdict && verdict.problem).to.contain(`more than ${MAX_SYMBOLIC_LINKS} symbolic links`);
        expect(describeRefusal(path.join(ws, 'a'), verdict, [ws])).to.match(/^cannot be checked against the workspace folders/);
    });

    it('judges a new file under a dangling link to a folder by where that folder would be', async () => {
        fs.symlinkSync('../home/.ssh/not-yet', path.join(ws, 'cache'));
        expect(await checkInsideRoots(path.join(ws, 'cache', 'sub', 'key'), [ws]))
            .to.deep.equal({ inside: false, realPath: path.join(outside, 'not-yet', 'sub', 'key') });
        fs.symlinkSync('src/generated', path.join(ws, 'gen'));
        expect(await checkInsideRoots(path.join(ws, 'gen', 'out.ts'), [ws])).to.deep.equal({ inside: true, realPath: path.join(ws, 'src', 'generated', 'out.ts') });
    });

    it('refuses a path through a file used as a folder (ENOTDIR)', async () => {
        fs.writeFileSync(path.join(ws, 'file'), '');
        const verdict = await checkInsideRoots(path.join(ws, 'file', 'below'), [ws]);
        expect(verdict).to.deep.equal({ inside: false, problem: `Cannot tell where ${path.join(ws, 'file', 'below')} leads: ${path.join(ws, 'file')} is not a folder` });
    });

    it('refuses a path through a folder that may not be read (EACCES)', async () => {
        fs.mkdirSync(path.join(ws, 'locked'));
        fs.chmodSync(path.join(ws, 'locked'), 0o000);
        const target = path.join(ws, 'locked', 'x', 'y');
        try {
            if (process.getuid?.() !== 0) {
                const verdict = await checkInsideRoots(target, [ws]);
                expect('problem' in verdict && verdict.problem).to.contain('permission denied');
                return;
            }
            // Root reads every folder: the check runs in a child that drops to nobody once the module is
            // loaded (the checkout may sit in a folder nobody can enter), as a user without the right would.
            fs.chmodSync(base, 0o755);
            const script = `const boundary = require(${JSON.stringify(path.join(__dirname, 'workspace-boundary.js'))});`
                + 'process.setgid(65534); process.setuid(65534);'
                + `boundary.checkInsideRoots(${JSON.stringify(target)}, [${JSON.stringify(ws)}]).then(verdict => process.stdout.write(JSON.stringify(verdict)))`;
            const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
            expect(child.status, child.stderr).to.equal(0);
            const verdict = JSON.parse(child.stdout);
            expect(verdict.inside).to.equal(false);
            expect(verdict.problem).to.contain('permission denied');
        } finally {
            fs.chmodSync(path.join(ws, 'locked'), 0o755);
        }
    });

    it('follows a link to a folder outside, and back in through ".."', async () => {
        fs.symlinkSync(outside, path.join(ws, 'escape'));
        expect(await isInsideRoots(path.join(ws, 'escape', 'id_rsa'), [ws])).to.equal(false);
        // `escape/..` is the link target's parent as the OS resolves it, not `ws` as the text says.
        expect(await checkInsideRoots(`${ws}/escape/../x`, [ws])).to.deep.equal({ inside: false, realPath: path.join(base, 'home', 'x') });
        // And the other way round: inside for the OS, outside for whoever normalises the text first.
        fs.mkdirSync(path.join(ws, 'src', 'deep'));
        fs.symlinkSync(path.join(ws, 'src', 'deep'), path.join(ws, 'shortcut'));
        expect(await checkInsideRoots(`${ws}/shortcut/../x`, [ws])).to.deep.equal({ inside: true, realPath: path.join(ws, 'src', 'x') });
        expect(await checkInsideRoots(`${ws}/shortcut/../../x`, [ws])).to.deep.equal({ inside: false, realPath: path.join(base, 'x') });
        expect(await isInsideRoots('relative/path', [ws])).to.equal(false);
    });
});
