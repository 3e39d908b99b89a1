import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { CompatApp, compatVersions, packAllPackages } from '../hosts/compat-app';
import { AcpChat } from '../hosts/acp-chat-view';
import { IdeProbe } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { createSandbox, createWorkspace, Sandbox, updateTheiaSettings } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';

/**
 * What a user gets who adds our published packages to their own Theia app: every package packed
 * with `npm pack`, installed into a fresh browser app outside this repository at each tested Theia
 * version (or those `npm run test:compat -- <version>…` names), built with `theia build` and used in
 * Chromium. Apps and npm's cache are kept between runs (compat-app.ts), so a run without changes only
 * starts them.
 */
describe('Compatibility: the packed packages in a fresh Theia app at each tested version', function (): void {
    this.timeout(40 * 60_000);
    let tarballs: string[] = [];

    before(async () => {
        tarballs = await packAllPackages();
    });

    for (const version of compatVersions()) {
        describe(`Theia ${version}`, () => {
            let app: CompatApp;
            let sandbox: Sandbox;
            let workspace: string;
            let backend: TheiaBackend | undefined;
            let window: TheiaWindow | undefined;
            let probe: IdeProbe | undefined;

            before(async () => {
                app = await CompatApp.prepare(version, tarballs);
                sandbox = createSandbox();
                updateTheiaSettings(sandbox, {
                    'ai-features.chat.defaultChatAgent': 'Fake',
                    'aiCliCompanion.acp.agents': [{
                        name: 'Fake', command: process.execPath,
                        // The fake agent as the published acp-client ships it.
                        args: [app.installedFile('acp-client', 'lib/node/test/fake-acp-agent-main.js')],
                        env: { FAKE_AGENT_LOG: path.join(sandbox.tmp, 'fake-agent.jsonl') }
                    }]
                });
                workspace = createWorkspace(sandbox, 'project', { 'src/app.ts': 'export const version = 1;\n' });
                backend = new TheiaBackend(sandbox, workspace, app.backendMain);
                await backend.start();
                window = await TheiaWindow.open(sandbox, backend.url);
            });
            after(async () => {
                await probe?.close();
                await window?.close();
                await backend?.stop();
                sandbox?.dispose();
            });

            it('installs with one @theia/core in the whole app, the app\'s own, and a tree npm finds nothing wrong with', async () => {
                const tree = await app.installedTree();
                expect(tree.versionsOf('@theia/core')).to.deep.equal([version]);
                const nested = fs.readdirSync(path.dirname(app.installedFile('cli-process', '')))
                    .filter(name => fs.existsSync(app.installedFile(name, 'node_modules/@theia')));
                expect(nested, 'our packages with a Theia of their own').to.deep.equal([]);
                expect(tree.problems).to.deep.equal([]);
            });

            it('our Theia extensions\' sources type-check against this Theia\'s own declarations (an API that differs here would not compile)', async () => {
                const { code, output } = await app.typeCheck();
                expect(code, output.slice(0, 6000)).to.equal(0);
            });

            it('shows the workbench with the companion running, no CLI connected yet', async () => {
                await window!.page.locator('#status-bar-ai-cli-ide-companion\\.status .codicon-debug-disconnect').waitFor({ state: 'visible', timeout: 30000 });
                expect(await window!.statusText()).to.match(/^\s*CLI\s*$/);
            });

            it('connects the real Gemini CLI IdeClient from a terminal\'s environment; an openDiff reviewed in Monaco\'s gutter and accepted reaches it', async () => {
                await window!.openTerminal();
                const env = await window!.terminalEnvironment(workspace);
                probe = new IdeProbe('gemini', env, workspace);
                expect((await probe.connected()).status.status).to.equal('connected');
                await window!.waitForStatus(/CLI 1$/);
                const file = path.join(workspace, 'src', 'app.ts');
                probe.openDiff(file, 'export const version = 2;\nexport const name = \'app\';\nexport const stable = true;\n');
                await window!.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });
                // The per-change gutter items are contributed to the Monaco this Theia ships (a peer dependency).
                // A change of three lines has room for them (a one-line change shows only "More Actions...").
                await window!.diff.clickChangeAction('version = 2', 'Reject Change');
                await until(async () => await window!.diff.proposalText() === 'export const version = 1;\n', 'the change rejected in the proposal', 10000)
                    .catch(async error => { throw new Error(`${error.message}: ${JSON.stringify(await window!.diff.proposalText())}`); });
                const accept = window!.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first();
                await accept.waitFor({ state: 'visible', timeout: 10000 });
                await accept.click();
                expect((await probe.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: 'export const version = 1;\n' });
            });

            it('answers in Theia AI\'s chat through an ACP agent', async () => {
                const chat = new AcpChat(window!, backend!);
                const response = await chat.send('echo compatible');
                await chat.finished(response);
                const text = await chat.text(response);
                expect(text, `the response: ${(await response.innerHTML()).slice(0, 3000)}; backend log: ${backend!.log.slice(-3000)}`).to.contain('echo compatible');
            });

            it('opens the Agent Tasks view', async () => {
                await window!.runCommand('Show Agent Tasks');
                await window!.page.locator('.agent-tasks').first().waitFor({ state: 'visible', timeout: 20000 });
            });
        });
    }
});
