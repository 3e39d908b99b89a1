import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { expectedTransport, IN_CONTAINER } from '../clis/client-transport';
import { until } from '../support/processes';
import { Sandbox, geminiDiscoveryDirectory } from '../support/sandbox';
import { Testbed } from '../support/testbed';
import { TheiaBackend } from '../hosts/theia-backend';

/**
 * The real Gemini CLI and Qwen Code IdeClients connect to Theia with the environment of a real Theia
 * terminal, from a workspace subfolder whose path has a space and non-ASCII characters: over the
 * transport the client picks on this machine (the stdio relay for Gemini CLI in a container, direct
 * HTTP on 127.0.0.1 elsewhere), and over direct HTTP as on a machine that is not a container.
 */
describe('IDE mode: real CLI clients connect from a Theia terminal', function (): void {
    this.timeout(240000);
    const bed = Testbed.install('my project ü', {
        'sub dir/ñ.txt': 'hello\n',
        'README.md': '# demo\n',
        // Tasks are spawned by the backend task server, a path apart from shell terminals.
        '.theia/tasks.json': JSON.stringify({
            version: '2.0.0',
            tasks: [{ label: 'capture-env', type: 'shell', command: 'env -0 > "$TMPDIR/task-env.txt"', problemMatcher: [] }]
        })
    });
    let sandbox: Sandbox;
    let workspace: string;
    let backend: TheiaBackend;
    const openWindow = () => bed.openWindow();
    before(() => ({ sandbox, workspace, backend } = bed));

    it('gives the terminal the window\'s variables, with its discovery files already on disk', async () => {
        const window = await openWindow();
        await window.openTerminal();
        const env = await window.terminalEnvironment();
        const port = Number(env.GEMINI_CLI_IDE_SERVER_PORT);
        expect(port).to.be.greaterThan(0);
        expect(env.QWEN_CODE_IDE_SERVER_PORT).to.equal(String(port));
        expect(env.GEMINI_CLI_IDE_PID).to.equal(String(backend.pid));
        expect(env.GEMINI_CLI_IDE_WORKSPACE_PATH).to.equal(workspace);
        expect(env.QWEN_CODE_IDE_WORKSPACE_PATH).to.equal(workspace);
        expect(env.TERM_PROGRAM).to.equal(undefined);

        const geminiFile = path.join(geminiDiscoveryDirectory(sandbox), `gemini-ide-server-${backend.pid}-${port}.json`);
        const qwenFile = path.join(sandbox.home, '.qwen', 'ide', `${port}.lock`);
        for (const file of [geminiFile, qwenFile]) {
            expect(fs.statSync(file).mode & 0o777, file).to.equal(0o600);
            expect(fs.statSync(path.dirname(file)).mode & 0o777, path.dirname(file)).to.equal(0o700);
        }
        const gemini = JSON.parse(fs.readFileSync(geminiFile, 'utf8'));
        expect(gemini).to.include({ port, workspacePath: workspace });
        expect(gemini.ideInfo).to.deep.equal({ name: 'theia', displayName: 'Eclipse Theia' });
        expect(gemini.authToken).to.be.a('string').with.length.of.at.least(22);
        expect(gemini.stdio.command).to.equal(process.execPath);
        const qwen = JSON.parse(fs.readFileSync(qwenFile, 'utf8'));
        expect(qwen).to.include({ port, workspacePath: workspace, ppid: backend.pid, ideName: 'Eclipse Theia' });
        // Each CLI's file has its own secret: a session is known by the file its CLI read.
        expect(qwen.authToken).to.be.a('string').with.length.of.at.least(22).and.not.equal(gemini.authToken);
        expect(backend.log).to.not.contain(gemini.authToken);
        expect(backend.log).to.not.contain(qwen.authToken);
    });

    it('gives the window\'s tasks the same variables as its terminals', async () => {
        const window = await openWindow();
        await window.openTerminal();
        const terminalEnv = await window.terminalEnvironment();
        // The terminal's TMPDIR is the backend's own: the window sets none where <tmpdir>/gemini is the user's.
        expect(terminalEnv.TMPDIR).to.equal(sandbox.tmp);
        const captured = path.join(sandbox.tmp, 'task-env.txt');
        await window.runTask('capture-env');
        await until(() => fs.existsSync(captured) && fs.readFileSync(captured, 'utf8').includes('GEMINI_CLI_IDE_SERVER_PORT='), 'the task to capture its environment', 30000);
        const taskEnv = Object.fromEntries(fs.readFileSync(captured, 'utf8').split('\0').filter(Boolean)
            .map(entry => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
        for (const key of ['GEMINI_CLI_IDE_SERVER_PORT', 'GEMINI_CLI_IDE_WORKSPACE_PATH', 'GEMINI_CLI_IDE_PID',
            'QWEN_CODE_IDE_SERVER_PORT', 'QWEN_CODE_IDE_WORKSPACE_PATH', 'CLAUDE_CODE_SSE_PORT', 'TMPDIR']) {
            expect(taskEnv[key], key).to.equal(terminalEnv[key]);
        }
    });

    for (const flavour of ['gemini', 'qwen'] as const) {
        it(`connects the real ${flavour} IdeClient from a workspace subfolder and shows it in the status bar`, async () => {
            const window = await openWindow();
            await window.openTerminal();
            const cwd = path.join(workspace, 'sub dir');
            const env = await window.terminalEnvironment(cwd);

            const probe = bed.probe(flavour, env, cwd);
            const report = await probe.connected();
            expect(report.status.status, report.status.details).to.equal('connected');
            expect(report.ide).to.deep.equal({ name: 'theia', displayName: 'Eclipse Theia' });
            expect(report.port).to.equal(Number(env.GEMINI_CLI_IDE_SERVER_PORT));
            expect(report.transport, `the transport ${flavour} takes ${IN_CONTAINER ? 'in' : 'outside'} a container`)
                .to.equal(await expectedTransport(flavour, env));

            await window.waitForStatus(/CLI 1$/);
            expect(await window.statusTooltip()).to.match(/Connected CLI sessions/);
            await probe.close();
            await window.waitForStatus(/^(?!.*CLI \d).*CLI$/);
        });
    }

    for (const flavour of ['gemini', 'qwen'] as const) {
        it(`connects the real ${flavour} IdeClient over direct HTTP on 127.0.0.1, as on a machine that is not a container`, async () => {
            const window = await openWindow();
            await window.openTerminal();
            // What the CLIs read as "not a container's own network" (an SSH session): they dial loopback.
            const env = { ...await window.terminalEnvironment(workspace), SSH_CONNECTION: '127.0.0.1 50000 127.0.0.1 22' };
            expect(await expectedTransport(flavour, env)).to.equal('http');
            const probe = bed.probe(flavour, env, workspace);
            const report = await probe.connected();
            expect(report.status.status, report.status.details).to.equal('connected');
            expect(report.transport, 'no stdio relay started').to.equal('http');
            await window.waitForStatus(/CLI 1$/);
            await probe.close();
            await window.waitForStatus(/^(?!.*CLI \d).*CLI$/);
        });
    }

    // What a `gemini` started from an SSH session or `docker exec` into the machine has: the user's own
    // environment (the sandbox's HOME and TMPDIR, which the backend runs with too), none of the window's.
    for (const { session, extra } of [
        { session: 'an SSH session', extra: { SSH_CONNECTION: '127.0.0.1 50000 127.0.0.1 22' } },
        { session: 'docker exec', extra: {} }
    ]) {
        it(`connects the real gemini IdeClient started outside the IDE (${session}) in the workspace folder, and the status says where its file is and why`, async () => {
            const window = await openWindow();
            await window.openTerminal();
            const terminalEnv = await window.terminalEnvironment(workspace);
            expect(terminalEnv.TMPDIR, 'the terminal\'s TMPDIR is the backend\'s own where the standard directory is the user\'s').to.equal(sandbox.tmp);
            const plain: NodeJS.ProcessEnv = { ...sandbox.env, ...extra };
            expect(Object.keys(plain).filter(name => /^(GEMINI_CLI_IDE_|QWEN_CODE_IDE_|CLAUDE_CODE_)/.test(name)), 'none of the window\'s variables').to.deep.equal([]);
            // The same os.tmpdir() as the backend's, as a session on the same machine has: read from the backend process itself.
            const backendEnv = fs.readFileSync(`/proc/${backend.pid}/environ`, 'utf8').split('\0');
            expect(backendEnv).to.include(`TMPDIR=${plain.TMPDIR}`);
            expect(plain.TMPDIR).to.equal(sandbox.tmp);

            // Without the window's port the CLI takes any window on the folder: let those of earlier tests go (their grace period).
            const ours = `gemini-ide-server-${backend.pid}-${terminalEnv.GEMINI_CLI_IDE_SERVER_PORT}.json`;
            await until(() => fs.readdirSync(geminiDiscoveryDirectory(sandbox)).join() === ours, 'only this window\'s Gemini CLI file', 30000);
            const probe = bed.probe('gemini', plain, workspace);
            const report = await probe.connected();
            expect(report.status.status, report.status.details).to.equal('connected');
            expect(report.ide).to.deep.equal({ name: 'theia', displayName: 'Eclipse Theia' });
            expect(report.port).to.equal(Number(terminalEnv.GEMINI_CLI_IDE_SERVER_PORT));
            expect(report.transport).to.equal(await expectedTransport('gemini', plain));
            await window.waitForStatus(/CLI 1$/);

            await window.runCommand('CLI Companion: Show Status');
            const placement = window.page.locator('.ai-cli-companion-flavour[data-flavour="gemini"] .ai-cli-companion-placement');
            await placement.waitFor({ state: 'visible', timeout: 20000 });
            expect(await placement.innerText()).to.match(/^In the standard directory, this user's alone: a Gemini CLI started anywhere on this machine/);
            await probe.close();
            await window.waitForStatus(/^(?!.*CLI \d).*CLI$/);
        });
    }

    it('connects each CLI to its own window when two windows show the same folder', async () => {
        const a = await openWindow();
        const b = await openWindow();
        await a.openTerminal();
        await b.openTerminal();
        const envA = await a.terminalEnvironment(workspace);
        const envB = await b.terminalEnvironment(workspace);
        expect(envA.GEMINI_CLI_IDE_SERVER_PORT).to.not.equal(envB.GEMINI_CLI_IDE_SERVER_PORT);

        for (const flavour of ['gemini', 'qwen'] as const) {
            const probeA = bed.probe(flavour, envA, workspace);
            const probeB = bed.probe(flavour, envB, workspace);
            const [reportA, reportB] = await Promise.all([probeA.connected(), probeB.connected()]);
            expect(reportA.status.status, `${flavour} A: ${reportA.status.details}`).to.equal('connected');
            expect(reportB.status.status, `${flavour} B: ${reportB.status.details}`).to.equal('connected');
            expect(reportA.port, flavour).to.equal(Number(envA.GEMINI_CLI_IDE_SERVER_PORT));
            expect(reportB.port, flavour).to.equal(Number(envB.GEMINI_CLI_IDE_SERVER_PORT));
            await a.waitForStatus(/CLI 1$/);
            await b.waitForStatus(/CLI 1$/);
            await probeA.close();
            await a.waitForStatus(/^(?!.*CLI \d).*CLI$/);
            expect(await b.statusText()).to.match(/CLI 1$/);
            await probeB.close();
            await b.waitForStatus(/^(?!.*CLI \d).*CLI$/);
        }
    });

    it('removes the window\'s discovery files once its browser tab is closed', async () => {
        const window = await openWindow();
        await window.openTerminal();
        const env = await window.terminalEnvironment();
        const port = Number(env.GEMINI_CLI_IDE_SERVER_PORT);
        const geminiFile = path.join(geminiDiscoveryDirectory(sandbox), `gemini-ide-server-${backend.pid}-${port}.json`);
        const qwenFile = path.join(sandbox.home, '.qwen', 'ide', `${port}.lock`);
        expect(fs.existsSync(geminiFile) && fs.existsSync(qwenFile)).to.equal(true);
        await window.close();
        await until(() => !fs.existsSync(geminiFile) && !fs.existsSync(qwenFile), 'the window\'s discovery files to be removed', 30000);
    });
});
