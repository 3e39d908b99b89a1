import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { descendantsOf, killTree, until } from './processes';
import { Testbed } from './testbed';

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
            path.join(bed.sandbox.tmp, 'gemini', 'ide', `gemini-ide-server-${bed.backend.pid}-${port}.json`),
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
});
