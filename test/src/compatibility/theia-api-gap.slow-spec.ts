import { expect } from 'chai';
import { composeApp } from '../hosts/composed-app';
import { until } from '../support/processes';
import { createSandbox, createWorkspace, Sandbox } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

const THEIA_AI = ['@theia/ai-core', '@theia/ai-chat', '@theia/ai-chat-ui'];
const OURS = ['@theia-cli-companion/ai-cli-ide-companion', '@theia-cli-companion/ai-acp-chat', '@theia-cli-companion/ai-agent-tasks'];

/**
 * The packages accept every Theia 1.x from 1.72 on, including releases they were never tested with.
 * Here the browser-app is composed with a test extension that takes away what the ACP chat registers
 * its agents with (ChatAgentService.registerChatAgent / unregisterChatAgent), as a Theia release
 * that renamed them would: the IDE must start all the same, and say why the chat has no ACP agents.
 */
describe('The ACP chat in a Theia whose AI chat lacks the API it registers with', function (): void {
    this.timeout(10 * 60_000);
    let sandbox: Sandbox;
    let backend: TheiaBackend | undefined;
    let window: TheiaWindow | undefined;

    before(async () => {
        const app = composeApp('theia-api-gap', 'The browser-app in a Theia AI without ChatAgentService.registerChatAgent',
            [...THEIA_AI, ...OURS, '@theia-cli-companion/theia-api-gap']);
        sandbox = createSandbox();
        const workspace = createWorkspace(sandbox, 'project', { 'a.txt': 'a\n' });
        backend = new TheiaBackend(sandbox, workspace, app.main);
        await backend.start();
        window = await TheiaWindow.open(sandbox, backend.url);
    });
    after(async () => {
        await window?.close();
        await backend?.stop();
        sandbox?.dispose();
    });

    it('starts the workbench with IDE mode running, and says once why the ACP agents are missing from the chat', async () => {
        await window!.page.locator('#status-bar-ai-cli-ide-companion\\.status .codicon-debug-disconnect').waitFor({ state: 'visible', timeout: 30000 });
        const told = /The ACP chat could not add its agents to Theia AI's chat \(.*registerChatAgent.*\)/;
        await until(async () => (await window!.notifications()).some(text => told.test(text)), 'the notification that says why', 30000)
            .catch(async error => { throw new Error(`${error.message}: ${await window!.describeForFailure('theia-api-gap')}`); });
        const logged = backend!.log.match(/ai-acp-chat:AcpChatAgents ERROR Theia AI's chat refused the ACP chat's agents: .*registerChatAgent/g) ?? [];
        expect(logged, 'told once').to.have.length(1);
        // The rest of the IDE works: a file opens in the editor, the Agent Tasks view opens.
        await window!.openFile('a.txt');
        await window!.runCommand('Show Agent Tasks');
        await window!.page.locator('.agent-tasks').first().waitFor({ state: 'visible', timeout: 20000 });
    });
});
