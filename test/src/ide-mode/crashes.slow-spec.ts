import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { descendantsOf, killTree, until } from '../support/processes';
import { Testbed } from '../support/testbed';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';
import { geminiDiscoveryDirectory } from '../support/sandbox';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';

/** Processes that die without a word: the window server notices and cleans up after them. */
describe('Crashes: a CLI or a browser killed with SIGKILL', function (): void {
    this.timeout(240000);
    const bed = Testbed.install('project', { 'src/app.ts': 'line 1\n' });

    it('a CLI killed while its diff is open: the diff closes and the window lists no session', async () => {
        const window = await bed.openWindow();
        await window.openTerminal();
        const env = await window.terminalEnvironment(bed.workspace);
        const probe = bed.probe('gemini', env, bed.workspace);
        expect((await probe.connected()).status.status).to.equal('connected');
        await window.waitForStatus(/CLI 1$/);
        probe.openDiff(path.join(bed.workspace, 'src', 'app.ts'), 'line one\n');
        await window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });

        probe.kill();
        await until(async () => await window.page.locator(DIFF_EDITOR).count() === 0, 'the orphaned diff to close', 20000);
        await window.waitForStatus(/^CLI$/, 20000);
        expect(fs.readFileSync(path.join(bed.workspace, 'src', 'app.ts'), 'utf8')).to.equal('line 1\n');
    });

    it('a browser killed with SIGKILL: its window server stops and its discovery files go', async () => {
        const before = new Set(descendantsOf(process.pid));
        const window = await bed.openWindow();
        await window.openTerminal();
        const env = await window.terminalEnvironment(bed.workspace);
        const port = env.GEMINI_CLI_IDE_SERVER_PORT;
        const files = [
            path.join(geminiDiscoveryDirectory(bed.sandbox), `gemini-ide-server-${bed.backend.pid}-${port}.json`),
            path.join(bed.sandbox.home, '.qwen', 'ide', `${port}.lock`)
        ];
        expect(files.every(file => fs.existsSync(file))).to.equal(true);

        // The browser this window runs in: the processes started since, minus the backend's own.
        const backendTree = new Set([bed.backend.pid, ...descendantsOf(bed.backend.pid)]);
        const browserRoots = descendantsOf(process.pid).filter(pid => !before.has(pid) && !backendTree.has(pid)
            && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom'));
        expect(browserRoots.length).to.be.greaterThan(0);
        browserRoots.forEach(pid => killTree(pid));

        // The backend notices the dropped connection, keeps the window for its reload grace, then stops it.
        await until(() => files.every(file => !fs.existsSync(file)), 'the discovery files of the killed window to go', 60000, 250);
        await window.close();
    });

    it('a backend killed with SIGKILL while a CLI is connected with a diff open: the CLI sees Disconnected, the next backend starts clean, /ide enable connects to it',
        async () => {
            const crashed = new TheiaBackend(bed.sandbox, bed.workspace);
            await crashed.start();
            let replacement: TheiaBackend | undefined;
            let window: TheiaWindow | undefined;
            try {
                window = await TheiaWindow.open(bed.sandbox, crashed.url);
                await window.openTerminal();
                const env = await window.terminalEnvironment(bed.workspace);
                const files = [
                    path.join(geminiDiscoveryDirectory(bed.sandbox), `gemini-ide-server-${crashed.pid}-${env.GEMINI_CLI_IDE_SERVER_PORT}.json`),
                    path.join(bed.sandbox.home, '.qwen', 'ide', `${env.GEMINI_CLI_IDE_SERVER_PORT}.lock`)
                ];
                // The CLI runs outside the IDE's terminals (as in tmux), so it outlives the backend.
                const probe = bed.probe('gemini', env, bed.workspace);
                expect((await probe.connected()).status.status).to.equal('connected');
                probe.openDiff(path.join(bed.workspace, 'src', 'app.ts'), 'line one\n');
                await window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });

                await crashed.kill9();
                await window.close();
                window = undefined;
                expect(files.every(file => fs.existsSync(file)), 'a SIGKILLed backend cannot clean up').to.equal(true);
                await until(async () => (await probe.status()).status.status === 'disconnected', 'the CLI to show Disconnected', 30000, 500);

                replacement = new TheiaBackend(bed.sandbox, bed.workspace);
                await replacement.start();
                await until(() => files.every(file => !fs.existsSync(file)), 'the dead backend\'s files to be removed', 20000);
                window = await TheiaWindow.open(bed.sandbox, replacement.url);
                await window.openTerminal();
                const newPort = Number((await window.terminalEnvironment(bed.workspace)).GEMINI_CLI_IDE_SERVER_PORT);
                const report = await probe.reconnect();
                expect(report.status.status, JSON.stringify(report)).to.equal('connected');
                expect(report.port).to.equal(newPort);
                await window.waitForStatus(/CLI 1$/);
            } finally {
                await window?.close();
                await replacement?.stop();
                await crashed.stop();
            }
        });
});
