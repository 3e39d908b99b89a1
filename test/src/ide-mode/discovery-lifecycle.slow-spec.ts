import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { IdeProbe } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { createSandbox, createWorkspace, Sandbox, geminiDiscoveryDirectory } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

function discoveryFiles(sandbox: Sandbox): string[] {
    const list = (dir: string) => fs.existsSync(dir) ? fs.readdirSync(dir).map(name => path.join(dir, name)) : [];
    return [...list(geminiDiscoveryDirectory(sandbox)), ...list(path.join(sandbox.home, '.qwen', 'ide')), ...list(path.join(sandbox.home, '.claude', 'ide'))].sort();
}

/** Discovery files across crashes, restarts, reloads, other backends and windows without a folder. */
describe('IDE mode: discovery file lifecycle', function (): void {
    this.timeout(300000);
    let sandbox: Sandbox;
    let workspace: string;
    const backends: TheiaBackend[] = [];
    const windows: TheiaWindow[] = [];
    const probes: IdeProbe[] = [];

    const startBackend = async (folder: string | null = workspace) => {
        const backend = new TheiaBackend(sandbox, folder ?? undefined);
        backends.push(backend);
        await backend.start();
        return backend;
    };
    const openWindow = async (backend: TheiaBackend) => {
        const window = await TheiaWindow.open(sandbox, backend.url);
        windows.push(window);
        return window;
    };

    beforeEach(() => {
        sandbox = createSandbox();
        workspace = createWorkspace(sandbox, 'project', { 'a.txt': 'a\n' });
    });

    afterEach(async () => {
        await Promise.all(probes.splice(0).map(probe => probe.close()));
        await Promise.all(windows.splice(0).map(window => window.close()));
        for (const backend of backends.splice(0)) {
            await backend.stop();
        }
        sandbox.dispose();
    });

    it('removes what a SIGKILLed backend left behind at the next start, and keeps another live backend\'s files', async () => {
        const other = await startBackend(createWorkspace(sandbox, 'other project'));
        await (await openWindow(other)).openTerminal();
        const othersFiles = discoveryFiles(sandbox);
        expect(othersFiles).to.have.length(3);

        const crashed = await startBackend();
        const window = await openWindow(crashed);
        await window.openTerminal();
        const env = await window.terminalEnvironment();
        const probe = new IdeProbe('gemini', env, workspace);
        probes.push(probe);
        expect((await probe.connected()).status.status).to.equal('connected');
        const crashedFiles = discoveryFiles(sandbox).filter(file => !othersFiles.includes(file));
        expect(crashedFiles).to.have.length(3);

        await crashed.kill9();
        expect(crashedFiles.every(file => fs.existsSync(file)), 'a killed process cannot clean up').to.equal(true);
        // The CLI notices the server is gone instead of hanging.
        await until(async () => (await probe.status()).status.status === 'disconnected', 'the CLI to show Disconnected', 30000, 500);

        const restarted = await startBackend();
        await until(() => crashedFiles.every(file => !fs.existsSync(file)), 'the stale files to be removed', 20000);
        expect(othersFiles.every(file => fs.existsSync(file)), 'files of a live backend are never removed').to.equal(true);
        expect(restarted.log).to.match(/Removed stale Gemini CLI discovery file/);
    });

    it('removes every discovery file when the backend is stopped with SIGTERM, and exits with 0 (a clean stop to a supervisor)', async () => {
        const backend = await startBackend();
        await (await openWindow(backend)).openTerminal();
        await (await openWindow(backend)).openTerminal();
        expect(discoveryFiles(sandbox)).to.have.length(6);
        await backend.stop();
        expect(discoveryFiles(sandbox)).to.deep.equal([]);
        expect(backend.exit, backend.log.slice(-2000)).to.deep.equal({ code: 0, signal: null });
    });

    it('removes every discovery file when the backend is interrupted with SIGINT (Ctrl+C), and exits with 0', async () => {
        const backend = await startBackend();
        await openWindow(backend);
        await until(() => discoveryFiles(sandbox).length === 3, 'the window\'s three discovery files', 20000);
        await backend.stop('SIGINT');
        expect(discoveryFiles(sandbox)).to.deep.equal([]);
        expect(backend.exit, backend.log.slice(-2000)).to.deep.equal({ code: 0, signal: null });
    });

    it('keeps the same server across a reload of the browser tab, so a connected CLI stays connected', async () => {
        const backend = await startBackend();
        const window = await openWindow(backend);
        await window.openTerminal();
        const env = await window.terminalEnvironment();
        const probe = new IdeProbe('gemini', env, workspace);
        probes.push(probe);
        expect((await probe.connected()).status.status).to.equal('connected');
        await window.waitForStatus(/CLI 1$/);

        await window.openFile('a.txt');
        const aTxt = path.join(workspace, 'a.txt');
        const activeFile = async () => {
            const context = (await probe.status()).context as { workspaceState?: { openFiles?: { path: string; isActive?: boolean }[] } } | null;
            return context?.workspaceState?.openFiles?.find(file => file.isActive)?.path;
        };
        await until(async () => await activeFile() === aTxt, 'a.txt to be the active file', 20000, 200);

        await window.page.reload();
        await window.page.waitForSelector('#theia-app-shell');
        await window.waitForStatus(/CLI 1$/, 30000);
        expect((await probe.status()).status.status).to.equal('connected');
        // The restored editor is reported again: the state is rebuilt, the session kept receiving.
        await until(async () => await activeFile() === aTxt, 'a.txt active again after the reload', 30000, 200);
        await window.openTerminal();
        const after = await window.terminalEnvironment();
        expect(after.GEMINI_CLI_IDE_SERVER_PORT).to.equal(env.GEMINI_CLI_IDE_SERVER_PORT);
    });

    it('advertises no folder for a window without one, and the CLI asks to open one', async () => {
        const backend = await startBackend(null);
        const window = await openWindow(backend);
        await window.openTerminal();
        const env = await window.terminalEnvironment(sandbox.root);
        const geminiFileName = `gemini-ide-server-${backend.pid}-${env.GEMINI_CLI_IDE_SERVER_PORT}.json`;
        const geminiFile = JSON.parse(fs.readFileSync(path.join(geminiDiscoveryDirectory(sandbox), geminiFileName), 'utf8'));
        expect(geminiFile.workspacePath).to.equal('');
        const gemini = new IdeProbe('gemini', env, sandbox.root);
        probes.push(gemini);
        const geminiReport = await gemini.connected();
        expect(geminiReport.status.status).to.equal('disconnected');
        expect(geminiReport.status.details).to.match(/open a workspace folder/);
        // Qwen Code discards a lock whose workspace does not match entirely and reports its generic state.
        const qwen = new IdeProbe('qwen', env, sandbox.root);
        probes.push(qwen);
        expect((await qwen.connected()).status.status).to.equal('disconnected');
    });
});
