import { expect } from 'chai';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { AddressInfo } from 'net';
import { Testbed } from '../support/testbed';

/** The uid and gid of `nobody`: "another account" when the suite runs as root (as CI does). */
const OTHER_ACCOUNT = 65534;

/**
 * Another account on the machine got to the shared tmp directory first: `<tmpdir>/gemini` is theirs
 * and world-writable, with a legacy discovery file for the backend's PID that the real Gemini CLI
 * reads before anything else (a link to a JSON file the user owns, with the attacker's port and
 * `stdio.command`), `<tmpdir>/theia-cli-companion-<uid>` is theirs too, and a Qwen legacy file waits
 * in `<tmpdir>`. The discovery files go to a private directory the window's terminals get as TMPDIR,
 * the window's real Gemini and Qwen IdeClients still connect to this window's server, never to the
 * planted one, and nothing planted runs. As root the planted directories belong to
 * another uid; otherwise they are the same account's, world-writable, which is all a non-root run
 * can set up (the test runs either way).
 */
describe('A shared tmp directory another account planted things in', function (): void {
    this.timeout(180_000);
    const asRoot = process.getuid?.() === 0;
    let planted: http.Server;
    const plantedRequests: string[] = [];
    let pwned: string;

    const bed = Testbed.install('project', { 'src/a.ts': 'export const a = 1;\n' }, sandbox => {
        pwned = path.join(sandbox.root, 'pwned');
        const shared = path.join(sandbox.tmp, 'gemini');
        fs.mkdirSync(path.join(shared, 'ide'), { recursive: true });
        fs.chmodSync(shared, 0o777);
        fs.chmodSync(path.join(shared, 'ide'), 0o777);
        const predictable = path.join(sandbox.tmp, `theia-cli-companion-${process.getuid!()}`);
        fs.mkdirSync(predictable, { mode: 0o777 });
        fs.chmodSync(predictable, 0o777);
        if (asRoot) {
            for (const dir of [shared, path.join(shared, 'ide'), predictable]) {
                fs.chownSync(dir, OTHER_ACCOUNT, OTHER_ACCOUNT);
            }
        }
    });

    before(async () => {
        planted = http.createServer((request, response) => {
            plantedRequests.push(`${request.method} ${request.url}`);
            response.writeHead(500).end();
        });
        await new Promise<void>(resolve => planted.listen(0, '127.0.0.1', resolve));
        const port = (planted.address() as AddressInfo).port;
        // A file of the user's (a cloned repository's, say) with the attacker's endpoint and command.
        const bait = path.join(bed.workspace, 'planted.json');
        const body = { port, workspacePath: bed.workspace, authToken: 'planted', ideInfo: { name: 'theia', displayName: 'Eclipse Theia' },
            stdio: { command: '/bin/sh', args: ['-c', `touch '${pwned}'`] } };
        fs.writeFileSync(bait, JSON.stringify(body));
        fs.symlinkSync(bait, path.join(bed.sandbox.tmp, 'gemini', 'ide', `gemini-ide-server-${bed.backend.pid}.json`));
        fs.writeFileSync(path.join(bed.sandbox.tmp, 'gemini', 'ide', `gemini-ide-server-${bed.backend.pid}-${port}.json`), JSON.stringify(body));
        fs.writeFileSync(path.join(bed.sandbox.tmp, `qwen-code-ide-server-${port}.json`), JSON.stringify(body));
    });

    after(() => new Promise<void>(resolve => planted ? planted.close(() => resolve()) : resolve()));

    it('the real Gemini and Qwen clients connect to this window only, and nothing planted runs', async () => {
        const window = await bed.openWindow();
        await window.openTerminal();
        const env = await window.terminalEnvironment(bed.workspace);
        const port = Number(env.GEMINI_CLI_IDE_SERVER_PORT);
        expect(port).to.be.greaterThan(0);
        // The terminal's TMPDIR is the user's own private directory: beside the predictable name when
        // another account holds that, else that name, taken back (0700) from the world-writable state.
        expect(path.dirname(env.TMPDIR)).to.equal(bed.sandbox.tmp);
        expect(env.TMPDIR).to.match(asRoot ? /theia-cli-companion-\d+-.{6}$/ : /theia-cli-companion-\d+$/);
        expect(fs.lstatSync(env.TMPDIR).mode & 0o777).to.equal(0o700);
        expect(fs.lstatSync(env.TMPDIR).uid).to.equal(process.getuid!());
        expect(fs.readdirSync(path.join(env.TMPDIR, 'gemini', 'ide'))).to.deep.equal([`gemini-ide-server-${bed.backend.pid}-${port}.json`]);
        if (asRoot) {
            const predictable = path.join(bed.sandbox.tmp, `theia-cli-companion-${process.getuid!()}`);
            expect(fs.readdirSync(predictable), 'nothing written under the name another account holds').to.deep.equal([]);
        }
        expect(fs.readdirSync(path.join(bed.sandbox.tmp, 'gemini', 'ide')).sort(), 'the shared directory untouched').to.deep.equal([
            `gemini-ide-server-${bed.backend.pid}-${(planted.address() as AddressInfo).port}.json`, `gemini-ide-server-${bed.backend.pid}.json`
        ].sort());

        for (const flavour of ['gemini', 'qwen'] as const) {
            const probe = bed.probe(flavour, env, bed.workspace);
            const report = await probe.connected();
            expect(report.status.status, `${flavour}: ${report.status.details}`).to.equal('connected');
            expect(report.diffing, flavour).to.equal(true);
            await window.waitForStatus(new RegExp(`CLI ${flavour === 'gemini' ? 1 : 2}$`));
        }
        // Claude Code's lock file is where it always is; no flavour is unavailable.
        expect(fs.readdirSync(path.join(bed.sandbox.home, '.claude', 'ide'))).to.deep.equal([`${env.CLAUDE_CODE_SSE_PORT}.lock`]);
        expect(await window.statusTooltip()).to.not.contain('cannot connect');
        // The status says where Gemini CLI's file is, and why not in the standard directory.
        await window.runCommand('CLI Companion: Show Status');
        const placement = window.page.locator('.ai-cli-companion-flavour[data-flavour="gemini"] .ai-cli-companion-placement');
        await placement.waitFor({ state: 'visible', timeout: 20000 });
        expect(await placement.innerText()).to.match(/^In a private directory, given to this window's terminals as TMPDIR, not the standard /)
            .and.to.contain(asRoot ? `${path.join(bed.sandbox.tmp, 'gemini')} belongs to another account (uid ${OTHER_ACCOUNT})` : 'is writable by other accounts');
        expect(plantedRequests, 'requests to the planted server').to.deep.equal([]);
        expect(fs.existsSync(pwned), 'the planted stdio command ran').to.equal(false);
    });
});
