import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { writeCliSettings } from '../clis/cli-settings';
import { ProbeReport } from '../hosts/ide-probe';
import { descendantsOf, until } from '../support/processes';
import { Sandbox, updateTheiaSettings, geminiDiscoveryDirectory } from '../support/sandbox';
import { Testbed } from '../support/testbed';
import { clientPath } from '../clis/client-packages';
import { TheiaWindow } from '../hosts/theia-window';

const GEMINI = clientPath('@google', 'gemini-cli', 'bundle', 'gemini.js');
const STATUS_ITEM = '#status-bar-ai-cli-ide-companion\\.status';

/**
 * The backend's PATH holds the real `gemini` and `node` only: Gemini CLI is "installed", Qwen Code
 * is not. Nothing else on the machine can change that.
 */
function installOnlyGemini(sandbox: Sandbox): void {
    writeCliSettings(sandbox);
    const bin = path.join(sandbox.root, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(GEMINI, path.join(bin, 'gemini'));
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    sandbox.env.PATH = [bin, '/usr/bin', '/bin'].join(':');
    sandbox.env.GEMINI_API_KEY = 'fake-key-for-offline-test';
    sandbox.env.NO_BROWSER = 'true';
}

/** Every discovery-file token on disk: none may ever show up in what the UI displays or copies. */
function discoveryTokens(sandbox: Sandbox): string[] {
    const dirs = [geminiDiscoveryDirectory(sandbox), path.join(sandbox.home, '.qwen', 'ide')];
    return dirs.flatMap(dir => fs.existsSync(dir) ? fs.readdirSync(dir) : [])
        .flatMap(name => {
            const file = dirs.map(dir => path.join(dir, name)).find(candidate => fs.existsSync(candidate))!;
            try {
                return [JSON.parse(fs.readFileSync(file, 'utf8')).authToken as string];
            } catch {
                return [];
            }
        });
}

/** The command line, cwd and environment of a process, from /proc; undefined once it is gone. */
function processInfo(pid: number): { cmdline: string; cwd: string; env: Record<string, string> } | undefined {
    try {
        return readProcess(pid);
    } catch {
        return undefined;
    }
}

function readProcess(pid: number): { cmdline: string; cwd: string; env: Record<string, string> } {
    const env: Record<string, string> = {};
    for (const entry of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
        const eq = entry.indexOf('=');
        if (eq > 0) {
            env[entry.slice(0, eq)] = entry.slice(eq + 1);
        }
    }
    return { cmdline: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '), cwd: fs.realpathSync(`/proc/${pid}/cwd`), env };
}

/** The status view's address line, "Running on 127.0.0.1:<port>". */
async function statusViewPort(window: TheiaWindow): Promise<number> {
    const text = await until(async () => {
        const state = await window.page.locator('.ai-cli-companion-state').innerText().catch(() => '');
        return /127\.0\.0\.1:(\d+)/.exec(state)?.[1];
    }, 'the status view to show the address', 20000);
    return Number(text);
}

describe('The companion as a user meets it: run commands, status view, preferences, log', function (): void {
    this.timeout(300000);
    const bed = Testbed.install('project', { 'src/app.ts': 'export const answer = 42;\n' }, installOnlyGemini);

    it('Run Gemini CLI from the status bar menu: a terminal named after the CLI and folder runs the real CLI there, it connects, the status view lists it', async () => {
        const window = await bed.openWindow();
        await window.page.locator(`${STATUS_ITEM} .codicon-debug-disconnect`).waitFor({ timeout: 20000 });
        await window.pickFromStatusMenu('Run Gemini CLI');

        const tab = window.page.locator('.lm-TabBar-tab', { hasText: 'Gemini CLI — project' });
        await tab.first().waitFor({ timeout: 20000 });
        await window.waitForStatus(/CLI 1$/, 120000).catch(async error => {
            throw new Error(`${error.message}; ${await window.describeForFailure('run-gemini')}\n${bed.backend.log.slice(-3000)}`);
        });

        // The CLI process itself: started in the workspace folder, with this window's variables.
        const gemini = await until(() => descendantsOf(bed.backend.pid).map(processInfo).find(info => info?.cmdline.includes('/bin/gemini')),
            'the gemini process under the backend', 20000);
        expect(gemini.cwd).to.equal(bed.workspace);
        expect(gemini.env.GEMINI_CLI_IDE_WORKSPACE_PATH).to.equal(bed.workspace);
        expect(gemini.env.GEMINI_CLI_IDE_PID).to.equal(String(bed.backend.pid));

        await window.runCommand('CLI Companion: Show Status');
        const port = await statusViewPort(window);
        expect(gemini.env.GEMINI_CLI_IDE_SERVER_PORT).to.equal(String(port));
        const session = window.page.locator('.ai-cli-companion-session');
        await session.first().waitFor({ timeout: 20000 });
        const row = await session.first().innerText();
        expect(row).to.match(/^Gemini CLI\s+\S+-client 0\.61\.0/);
        const flavours = await window.page.locator('.ai-cli-companion-flavour').allInnerTexts();
        expect(flavours.join('\n')).to.match(/Gemini CLI\s+Advertised in .*gemini-ide-server-\d+-\d+\.json/);
        expect(flavours.join('\n')).to.match(/Qwen Code\s+Advertised in .*\.qwen\/ide\/\d+\.lock/);
        expect(flavours.join('\n')).to.match(/Claude Code\s+Advertised in .*\.claude\/ide\/\d+\.lock/);
        // The disk space the companion's stores take on the backend: the checkpoints with their cap, the agent tasks.
        const stores = window.page.locator('.ai-cli-companion-storage tr');
        await stores.nth(1).waitFor({ timeout: 20000 });
        const storage = (await stores.allInnerTexts()).join('\n');
        expect(storage).to.match(/Chat turn checkpoints\s+\d+\.\d MiB\s+blobs \d+\.\d MiB, records \d+\.\d MiB, git \d+\.\d MiB · \d+\.\d MiB of at most 1024\.0 MiB \(blobs \+ records\)/);
        expect(storage).to.match(/Agent tasks\s+\d+\.\d MiB\s+blobs/);
        await window.saveDocScreenshot('status-view');
        await window.saveDocScreenshot('status-bar', window.page.locator('#theia-statusBar'));

        // The diagnostic report: the session is in it, no token is.
        await window.page.locator('[data-command="aiCliCompanion.copyDiagnostics"]').click();
        const report = await until(async () => {
            const text = await window.clipboardText().catch(() => '');
            return text.startsWith('# CLI Companion diagnostic report') && text;
        }, 'the diagnostic report on the clipboard', 20000);
        expect(report).to.match(/## Sessions \(1\)\n\n- Gemini CLI: \S+-client 0\.61\.0/);
        expect(report).to.contain(`Address: 127.0.0.1:${port}`);
        expect(report).to.match(/Gemini CLI: .*\/bin\/gemini/);
        expect(report).to.contain('Qwen Code: "qwen" not found');
        const tokens = discoveryTokens(bed.sandbox);
        expect(tokens.length).to.be.greaterThan(1);
        tokens.forEach(token => expect(report).to.not.contain(token));

        // The log: the connection and the run are in it, no token is.
        await window.page.locator('[data-command="aiCliCompanion.showLog"]').click();
        const log = await until(async () => {
            const text = await window.page.locator('#outputView .view-lines').innerText().catch(() => '');
            const plain = text.replace(/\u00a0/g, ' ');
            return /connected: \S+-client 0\.61\.0 \(with the gemini discovery token\)/.test(plain) && plain;
        }, 'the connection in the CLI Companion output channel', 20000).catch(async error => {
            const shown = await window.page.locator('#outputView').innerText().catch(() => '(no output view)');
            throw new Error(`${error.message}; the output view shows: ${shown}; ${await window.describeForFailure('companion-log')}`);
        });
        expect(log).to.match(/Started Gemini CLI \(.*\/bin\/gemini\) in a terminal in /);
        tokens.forEach(token => expect(log).to.not.contain(token));
    });

    it('Run Qwen Code when it is not installed: the install command, not a shell error, and no terminal', async () => {
        const window = await bed.openWindow();
        await window.page.locator(`${STATUS_ITEM} .codicon-debug-disconnect`).waitFor({ timeout: 20000 });
        const terminalsBefore = await window.page.locator('.terminal-container').count();
        await window.runCommand('CLI Companion: Run Qwen Code');
        const message = await until(async () => (await window.notifications()).find(text => text.includes('Qwen Code is not installed')),
            'the not-installed notification', 20000);
        expect(message).to.contain('npm install -g @qwen-code/qwen-code');
        await window.page.getByRole('button', { name: 'Copy Command' }).click();
        await until(async () => await window.clipboardText() === 'npm install -g @qwen-code/qwen-code', 'the install command on the clipboard', 10000);
        expect(await window.page.locator('.terminal-container').count()).to.equal(terminalsBefore);
    });

    it('applies preference changes at once: selected text, one CLI off, the companion off and on again', async () => {
        const window = await bed.openWindow();
        await window.openTerminal();
        const env = await window.terminalEnvironment(bed.workspace);
        const port = env.GEMINI_CLI_IDE_SERVER_PORT;
        const geminiFile = path.join(geminiDiscoveryDirectory(bed.sandbox), `gemini-ide-server-${bed.backend.pid}-${port}.json`);
        const qwenFile = path.join(bed.sandbox.home, '.qwen', 'ide', `${port}.lock`);
        expect(fs.existsSync(geminiFile) && fs.existsSync(qwenFile)).to.equal(true);
        const probe = bed.probe('gemini', env, bed.workspace);
        expect((await probe.connected()).status.status).to.equal('connected');
        const selected = (report: ProbeReport) =>
            (report.context as { workspaceState?: { openFiles?: { selectedText?: string }[] } } | null)?.workspaceState?.openFiles?.[0]?.selectedText;

        await window.openFile('src/app.ts');
        await window.goTo(1, 14);
        for (let i = 0; i < 6; i++) {
            await window.page.keyboard.press('Shift+ArrowRight');
        }
        await until(async () => selected(await probe.status()) === 'answer', 'the selection to reach the CLI', 20000, 200);
        try {
            updateTheiaSettings(bed.sandbox, { 'aiCliCompanion.context.includeSelectedText': false });
            await until(async () => selected(await probe.status()) === undefined, 'the selection to be withheld', 20000, 200);

            updateTheiaSettings(bed.sandbox, { 'aiCliCompanion.qwen.enabled': false });
            await until(() => !fs.existsSync(qwenFile), 'the Qwen Code lock file to go', 20000);
            expect(fs.existsSync(geminiFile)).to.equal(true);
            await window.openTerminal();
            const withoutQwen = await window.terminalEnvironment(bed.workspace);
            expect(withoutQwen.GEMINI_CLI_IDE_SERVER_PORT).to.equal(port);
            expect(withoutQwen.QWEN_CODE_IDE_SERVER_PORT).to.equal(undefined);
            expect((await probe.status()).status.status).to.equal('connected');

            updateTheiaSettings(bed.sandbox, { 'aiCliCompanion.enabled': false });
            await window.page.locator(`${STATUS_ITEM} .codicon-circle-slash`).waitFor({ timeout: 20000 });
            await until(() => !fs.existsSync(geminiFile), 'the Gemini CLI discovery file to go', 20000);
            await until(async () => (await probe.status()).status.status === 'disconnected', 'the CLI to see the server gone', 30000, 500);
            await window.runCommand('CLI Companion: Show Status');
            await until(async () => /Turned off in the preferences/.test(await window.page.locator('.ai-cli-companion-state').innerText().catch(() => '')),
                'the status view to say the companion is off', 20000);
            await window.saveDocScreenshot('status-view-off');
        } finally {
            updateTheiaSettings(bed.sandbox, {
                'aiCliCompanion.enabled': undefined, 'aiCliCompanion.qwen.enabled': undefined, 'aiCliCompanion.context.includeSelectedText': undefined
            });
        }
        await window.page.locator(`${STATUS_ITEM} .codicon-debug-disconnect`).waitFor({ timeout: 20000 });
        const newPort = await statusViewPort(window);
        expect(fs.existsSync(path.join(geminiDiscoveryDirectory(bed.sandbox), `gemini-ide-server-${bed.backend.pid}-${newPort}.json`))).to.equal(true);
        expect(fs.existsSync(path.join(bed.sandbox.home, '.qwen', 'ide', `${newPort}.lock`))).to.equal(true);
    });

    it('Turn Off from the status bar menu stops the window\'s server, Turn On in the status view starts a new one, Open Settings shows the preferences', async () => {
        const window = await bed.openWindow();
        await window.page.locator(`${STATUS_ITEM} .codicon-debug-disconnect`).waitFor({ timeout: 20000 });
        await window.runCommand('CLI Companion: Show Status');
        const port = await statusViewPort(window);
        const geminiFile = path.join(geminiDiscoveryDirectory(bed.sandbox), `gemini-ide-server-${bed.backend.pid}-${port}.json`);
        expect(fs.existsSync(geminiFile)).to.equal(true);
        try {
            await window.pickFromStatusMenu('Turn Off');
            await window.page.locator(`${STATUS_ITEM} .codicon-circle-slash`).waitFor({ timeout: 20000 });
            await until(() => !fs.existsSync(geminiFile), 'the discovery file to go', 20000);
            const settings = JSON.parse(fs.readFileSync(path.join(bed.sandbox.theiaConfig, 'settings.json'), 'utf8'));
            expect(settings['aiCliCompanion.enabled']).to.equal(false);

            await window.page.locator('[data-command="aiCliCompanion.turnOn"]').click();
            await window.page.locator(`${STATUS_ITEM} .codicon-debug-disconnect`).waitFor({ timeout: 20000 });
            const newPort = await statusViewPort(window);
            expect(fs.existsSync(path.join(geminiDiscoveryDirectory(bed.sandbox), `gemini-ide-server-${bed.backend.pid}-${newPort}.json`))).to.equal(true);
        } finally {
            updateTheiaSettings(bed.sandbox, { 'aiCliCompanion.enabled': undefined });
        }

        await window.pickFromStatusMenu('Open Settings');
        await window.page.getByText(/Diff:\s*Write On Accept/).first().waitFor({ timeout: 20000 }).catch(async error => {
            throw new Error(`${error.message}; ${await window.describeForFailure('open-settings')}`);
        });
        expect(await window.page.locator('.settings-search-input').inputValue()).to.equal('aiCliCompanion');
        await window.saveDocScreenshot('settings', window.page.locator('#theia-main-content-panel'));
    });
});

describe('Run commands in a multi-root workspace', function (): void {
    this.timeout(300000);
    const bed = Testbed.install('multi', {
        'front/index.ts': 'export {};\n',
        'back/server.ts': 'export {};\n',
        'multi.theia-workspace': JSON.stringify({ folders: [{ path: 'front' }, { path: 'back' }] })
    }, installOnlyGemini, 'multi.theia-workspace');

    it('asks which folder to run the CLI in, and runs it there', async () => {
        const window = await bed.openWindow();
        await window.page.locator(`${STATUS_ITEM} .codicon-debug-disconnect`).waitFor({ timeout: 20000 });
        await window.runCommand('CLI Companion: Run Gemini CLI');
        await window.pickQuickItem('back');
        await window.page.locator('.lm-TabBar-tab', { hasText: 'Gemini CLI — back' }).first().waitFor({ timeout: 20000 });
        const gemini = await until(() => descendantsOf(bed.backend.pid).map(processInfo).find(info => info?.cmdline.includes('/bin/gemini')),
            'the gemini process under the backend', 20000);
        expect(gemini.cwd).to.equal(path.join(bed.workspace, 'back'));
        expect(gemini.env.GEMINI_CLI_IDE_WORKSPACE_PATH).to.equal([path.join(bed.workspace, 'front'), path.join(bed.workspace, 'back')].join(':'));
        await window.waitForStatus(/CLI 1$/, 120000);
    });
});
