import { execFileSync } from 'child_process';
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { expectedTransport } from '../clis/client-transport';
import { VSIX } from '../hosts/code-server';
import { CompatApp, THEIA_SUPPORT } from '../hosts/compat-app';
import { IdeProbe } from '../hosts/ide-probe';
import { officialGeminiDiscovery } from '../clis/official-companion';
import { descendantsOf, until } from '../support/processes';
import { createSandbox, createWorkspace, geminiDiscoveryDirectory, Sandbox } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

const THEIA = THEIA_SUPPORT.tested[THEIA_SUPPORT.tested.length - 1];
const NUMBERS = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';

/**
 * The same .vsix in the Theia IDE product's way of extending: a Theia app with Theia's VS Code plugin
 * host and no Theia extension of ours, the extension unpacked into `--plugins=local-dir:`. Its terminals
 * carry no TERM_PROGRAM, which leaves the official Gemini companion "not supported" (gemini-cli #20003);
 * the discovery files name the IDE, and the real Gemini CLI IdeClient connects.
 */
describe(`VS Code extension in Theia ${THEIA}'s plugin host`, function (): void {
    this.timeout(30 * 60_000);
    let sandbox: Sandbox;
    let workspace: string;
    let backend: TheiaBackend;
    let window: TheiaWindow;
    let env: Record<string, string>;
    const probes: IdeProbe[] = [];

    before(async () => {
        const app = await CompatApp.prepare(THEIA, [], { pluginHost: true });
        sandbox = createSandbox();
        workspace = createWorkspace(sandbox, 'project', { 'notes.txt': 'alpha\n', 'numbers.txt': NUMBERS });
        const plugins = path.join(sandbox.root, 'plugins');
        const unpacked = path.join(sandbox.root, 'vsix');
        // As a user unpacks a .vsix into the plugins folder: its `extension/` is the plugin.
        execFileSync('python3', ['-m', 'zipfile', '-e', VSIX, unpacked]);
        fs.mkdirSync(plugins);
        fs.renameSync(path.join(unpacked, 'extension'), path.join(plugins, 'theia-cli-companion.ai-cli-companion'));
        backend = new TheiaBackend(sandbox, workspace, app.backendMain, [], [`--plugins=local-dir:${plugins}`]);
        await backend.start();
        window = await TheiaWindow.open(sandbox, backend.url);
        await until(() => fs.existsSync(geminiDiscoveryDirectory(sandbox)) && fs.readdirSync(geminiDiscoveryDirectory(sandbox)).length > 0,
            'the extension\'s Gemini CLI discovery file', 120_000).catch(error => {
            throw new Error(`${(error as Error).message}; backend log:\n${backend.log.slice(-4000)}`);
        });
        await window.openTerminal();
        env = await window.terminalEnvironment(workspace);
    });

    after(async () => {
        await Promise.all(probes.map(probe => probe.close()));
        await window?.close();
        await backend?.stop();
        sandbox?.dispose();
    });

    it('serves from the plugin host: terminals without TERM_PROGRAM get this window\'s variables, the discovery file names Eclipse Theia', async () => {
        expect(env.TERM_PROGRAM, 'Theia\'s terminals set none').to.equal(undefined);
        const host = Number(env.GEMINI_CLI_IDE_PID);
        expect(descendantsOf(backend.pid), 'the plugin host, a process of the backend').to.include(host);
        const file = path.join(geminiDiscoveryDirectory(sandbox), `gemini-ide-server-${host}-${env.GEMINI_CLI_IDE_SERVER_PORT}.json`);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        expect(JSON.parse(fs.readFileSync(file, 'utf8'))).to.deep.include({ workspacePath: workspace, ideInfo: { name: 'theia', displayName: 'Eclipse Theia' } });
    });

    it('connects the real Gemini CLI IdeClient from the terminal', async () => {
        const probe = new IdeProbe('gemini', env, workspace);
        probes.push(probe);
        const report = await probe.connected();
        expect(report.status.status, report.status.details).to.equal('connected');
        expect(report.ide).to.deep.equal({ name: 'theia', displayName: 'Eclipse Theia' });
        expect(report.diffing).to.equal(true);
        expect(report.transport).to.equal(await expectedTransport('gemini', env));
    });

    it('shows the official companion\'s failure side by side: a discovery file without ideInfo is "not supported" in the same terminal', async () => {
        // Its relay kept: only the missing ideInfo differs from ours.
        const probe = new IdeProbe('gemini', officialGeminiDiscovery(sandbox, env, ['stdio']), workspace);
        probes.push(probe);
        const report = await probe.connected();
        expect(report.ide, 'no IDE detected').to.equal(null);
        expect(report.status.status).not.to.equal('connected');
    });

    it('reviews a proposal in Theia\'s diff editor: edited and accepted from the editor\'s toolbar, the CLI gets that text', async () => {
        const probe = new IdeProbe('gemini', env, workspace);
        probes.push(probe);
        expect((await probe.connected()).status.status).to.equal('connected');
        const file = path.join(workspace, 'notes.txt');
        probe.openDiff(file, 'alpha\nbeta\n');
        await window.page.locator('#theia-main-content-panel .monaco-diff-editor').first().waitFor({ timeout: 30_000 });
        await window.diff.appendLineToProposal('typed in Theia');
        await window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .item [title^="Accept Diff"], #theia-main-content-panel .lm-TabBar-toolbar [title^="Accept Diff"]')
            .first().click();
        expect((await probe.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: 'alpha\nbeta\ntyped in Theia\n' });
    });

    it('reviews change by change from the keyboard and lists the proposal in Pending Changes, whose ✓ answers the CLI', async () => {
        const probe = new IdeProbe('gemini', env, workspace);
        probes.push(probe);
        expect((await probe.connected()).status.status).to.equal('connected');
        const file = path.join(workspace, 'numbers.txt');
        probe.openDiff(file, NUMBERS.replace('two', 'TWO').replace('five', 'FIVE').replace('eight', 'EIGHT'));
        await window.page.locator('#theia-main-content-panel .monaco-diff-editor').first().waitFor({ timeout: 30_000 });
        await until(async () => (await window.diff.proposalText()).includes('EIGHT'), 'the proposal to show', 10_000);
        await window.diff.focusProposal();
        await window.goTo(5, 1);
        await window.page.keyboard.press('Control+Shift+Backspace');
        await until(async () => (await window.diff.proposalText()).includes('\nfive\n'), 'the second change to be put back', 10_000)
            .catch(async error => { throw new Error(`${error.message}; ${await window.describeForFailure('plugin-host-change')}`); });
        await window.waitForCursorStatus(8, 1);
        await window.runCommand('AI CLI Companion: Show Pending Changes');
        const row = window.page.locator('.theia-TreeNode', { hasText: 'numbers.txt' }).first();
        await row.waitFor({ timeout: 10_000 }).catch(async error => { throw new Error(`${error.message}; ${await window.describeForFailure('plugin-host-pending')}`); });
        await row.hover();
        await row.locator('[title^="Accept Diff"]').first().click();
        expect((await probe.diffOutcome('diff', file)).result).to.deep.equal({
            status: 'accepted', content: NUMBERS.replace('two', 'TWO').replace('eight', 'EIGHT')
        });
    });
});
