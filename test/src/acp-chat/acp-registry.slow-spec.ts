import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { registryPlatformOf } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChat } from '../hosts/acp-chat-view';
import { AcpRegistryHost } from '../hosts/acp-registry-host';
import { waitForWorkbench } from '../hosts/browser';
import { until } from '../support/processes';
import { createSandbox, createWorkspace, Sandbox } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

const NPX_PACKAGE = '@acp-test/fake-registry-agent';
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#c0ffee"/></svg>';

/**
 * *Add Agent from ACP Registry…* against a registry on loopback, as a user meets it: agents listed from
 * the registry the user's settings name (never the workspace's), a binary agent installed (its archive
 * checked against its SHA-256) and an npx one (from an npm registry the test serves), each answering in
 * the chat under its registry name; a tampered archive refused with nothing kept; a malformed registry
 * and a missing one told clearly, with the installed agents still answering; an update offered when
 * the registry's version changes; a removal.
 */
describe('ACP chat: agents from the ACP Registry', function (): void {
    this.timeout(10 * 60_000);
    let sandbox: Sandbox;
    let host: AcpRegistryHost;
    let backend: TheiaBackend;
    let window: TheiaWindow;
    let chat: AcpChat;
    const installedRoot = () => path.join(sandbox.theiaConfig, 'acp-agents');
    const platform = registryPlatformOf(process.platform, process.arch)!;

    const binaryAgent = (version: string, sha256?: string, id = 'fake-binary', name = 'Fake Binary') => {
        const archive = host.putBinaryArchive(id, version);
        return {
            id, name, version, description: `The scripted agent as a ${id} archive`, license: 'EPL-2.0', icon: host.url('/files/icon.svg'),
            distribution: {
                binary: {
                    [platform]: { archive: archive.url, sha256: sha256 ?? archive.sha256, cmd: './bin/agent', env: { FAKE_AGENT_LOG: path.join(sandbox.tmp, `${id}.jsonl`) } }
                }
            }
        };
    };
    const npxAgent = {
        id: 'fake-npx', name: 'Fake Npx', version: '1.0.0', description: 'The scripted agent as an npm package', license: 'EPL-2.0',
        distribution: { npx: { package: `${NPX_PACKAGE}@1.0.0`, env: { FAKE_AGENT_LOG: '/dev/null' } } }
    };

    const notification = async (pattern: RegExp, what: string) => {
        await until(async () => (await window.notifications()).some(text => pattern.test(text)), what, 120000)
            .catch(async error => { throw new Error(`${error.message}: ${await window.describeForFailure('acp-registry')}; backend log:\n${backend.log.slice(-3000)}`); });
    };
    const addFromRegistry = async (agentName: string) => {
        await window.runCommand('Add Agent from ACP Registry');
        await window.pickQuickItem(agentName);
    };
    const answers = async (mention: string, text: string) => {
        const response = await chat.send(`@${mention} echo ${text}`, true);
        await chat.finished(response);
        expect(await chat.text(response)).to.contain(`echo ${text}`);
        return response;
    };

    before(async () => {
        sandbox = createSandbox();
        host = new AcpRegistryHost(path.join(sandbox.root, 'registry-host'));
        await host.start();
        host.putNpmPackage(NPX_PACKAGE, '1.0.0');
        host.put('/files/icon.svg', ICON, 'image/svg+xml');
        host.putRegistry([binaryAgent('1.0.0'), binaryAgent('1.0.0', 'f'.repeat(64), 'tampered', 'Tampered'), npxAgent]);
        host.putRegistry([{ ...npxAgent, id: 'evil', name: 'Evil Workspace Agent' }], '/workspace-registry.json');
        host.put('/malformed.json', JSON.stringify({ version: '1.0.0', agents: 'none' }));
        Object.assign(sandbox.env, { npm_config_registry: host.npmRegistry, npm_config_update_notifier: 'false' });
        fs.writeFileSync(path.join(sandbox.theiaConfig, 'settings.json'), JSON.stringify({
            'aiCliCompanion.acp.registryUrl': host.url('/registry.json')
        }));
        // A cloned repository that names a registry of its own: never listed, never installed from.
        const workspace = createWorkspace(sandbox, 'project', {
            '.theia/settings.json': JSON.stringify({ 'aiCliCompanion.acp.registryUrl': host.url('/workspace-registry.json') })
        });
        backend = new TheiaBackend(sandbox, workspace);
        await backend.start();
        window = await TheiaWindow.open(sandbox, backend.url);
        chat = new AcpChat(window, backend);
    });
    after(async () => {
        await window?.close();
        await backend?.stop();
        await host?.stop();
        sandbox?.dispose();
    });

    it('lists the agents of the user\'s registry, not the workspace\'s, with version and license', async () => {
        await window.runCommand('Add Agent from ACP Registry');
        const rows = window.page.locator('.quick-input-list .monaco-list-row');
        await rows.first().waitFor({ state: 'visible', timeout: 20000 });
        const texts = await rows.allInnerTexts();
        expect(texts.join('\n')).to.contain('Fake Binary').and.to.contain('1.0.0').and.to.contain('EPL-2.0').and.not.to.contain('Evil');
        expect(host.requests).not.to.include('/workspace-registry.json');
        await window.page.keyboard.press('Escape');
    });

    it('installs a binary agent for this user, its archive checked against its SHA-256; it answers under its registry name', async () => {
        await addFromRegistry('Fake Binary');
        await notification(/Fake Binary 1\.0\.0 is installed: address it as @Fake-Binary in the chat/, 'the install notice');
        const record = JSON.parse(fs.readFileSync(path.join(installedRoot(), 'fake-binary', 'installed.json'), 'utf8'));
        expect(record).to.deep.include({ id: 'fake-binary', version: '1.0.0', distribution: 'binary' });
        expect(fs.statSync(path.join(installedRoot(), 'fake-binary', 'installed.json')).mode & 0o777).to.equal(0o600);
        const response = await answers('Fake-Binary', 'from a binary agent');
        // Under the registry's icon, fetched by the backend and shown from a data URL.
        const icon = response.locator('.acp-registry-icon-fake-binary').first();
        await icon.waitFor({ state: 'attached', timeout: 10000 });
        expect(await icon.evaluate(node => getComputedStyle(node).backgroundImage)).to.contain(`data:image/svg+xml;base64,${Buffer.from(ICON).toString('base64')}`);
    });

    it('refuses an archive whose SHA-256 is not the registry\'s, and keeps nothing of it', async () => {
        await addFromRegistry('Tampered');
        await notification(/Tampered was not installed: .*SHA-256/, 'the refusal');
        const folder = path.join(installedRoot(), 'tampered');
        expect(fs.existsSync(folder) ? fs.readdirSync(folder) : [], 'what is left of it').to.deep.equal([]);
        expect(fs.readdirSync(installedRoot()).sort()).to.deep.equal(['fake-binary']);
    });

    it('installs an npx agent with npm into the user\'s folder at the registry\'s version; it answers', async () => {
        await addFromRegistry('Fake Npx');
        await notification(/Fake Npx 1\.0\.0 is installed: address it as @Fake-Npx/, 'the install notice');
        expect(host.requests.some(url => url.startsWith(`/npm/${NPX_PACKAGE.replace('/', '%2f')}`) || url.startsWith(`/npm/${NPX_PACKAGE}`))).to.equal(true);
        await answers('Fake-Npx', 'from an npm agent');
    });

    it('a malformed registry and a missing one are told clearly; installed agents keep answering', async () => {
        await window.changeSettings(sandbox, { 'aiCliCompanion.acp.registryUrl': host.url('/malformed.json') });
        await window.runCommand('Add Agent from ACP Registry');
        await notification(/The ACP Registry at http:\/\/127\.0\.0\.1:\d+\/malformed\.json could not be read: .*not an ACP registry/i, 'the malformed registry told');
        await window.changeSettings(sandbox, { 'aiCliCompanion.acp.registryUrl': host.url('/missing.json') });
        await window.runCommand('Add Agent from ACP Registry');
        await notification(/The ACP Registry at http:\/\/127\.0\.0\.1:\d+\/missing\.json could not be read: .*404/, 'the 404 told');
        await answers('Fake-Binary', 'while the registry is broken');
    });

    it('offers an update when the registry\'s version changes; the update replaces the old version', async () => {
        host.putRegistry([binaryAgent('1.1.0'), npxAgent]);
        await window.changeSettings(sandbox, { 'aiCliCompanion.acp.registryUrl': host.url('/registry.json') });
        await window.page.reload();
        await waitForWorkbench(window.page);
        await notification(/The ACP Registry has Fake Binary 1\.1\.0 \(installed: 1\.0\.0\)/, 'the update offered');
        // The toast and the notification center show the same notice: either button answers it.
        await window.page.locator('.theia-notification-list-item', { hasText: 'Fake Binary 1.1.0' }).locator('button', { hasText: 'Update' }).first().click();
        await notification(/Fake Binary 1\.1\.0 is installed/, 'the update installed');
        expect(JSON.parse(fs.readFileSync(path.join(installedRoot(), 'fake-binary', 'installed.json'), 'utf8')).version).to.equal('1.1.0');
        expect(fs.existsSync(path.join(installedRoot(), 'fake-binary', '1.0.0')), 'the old version removed').to.equal(false);
        await answers('Fake-Binary', 'after the update');
        // The same command from the chat view's toolbar: the installed version is marked.
        await window.page.locator('.lm-TabBar-toolbar .codicon-extensions').first().click();
        const row = window.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Fake Binary' }).first();
        await row.waitFor({ state: 'visible', timeout: 20000 });
        expect(await row.innerText()).to.match(/1\.1\.0 · EPL-2\.0 · installed/);
        await window.page.keyboard.press('Escape');
    });

    it('removes an installed agent', async () => {
        await window.runCommand('Remove Agent Installed from ACP Registry');
        await window.pickQuickItem('Fake Npx');
        await notification(/Fake Npx is removed/, 'the removal');
        expect(fs.existsSync(path.join(installedRoot(), 'fake-npx'))).to.equal(false);
    });
});
