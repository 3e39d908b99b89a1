import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { until } from './processes';
import { createSandbox, createWorkspace, Sandbox } from './sandbox';
import { REPO_ROOT, TheiaBackend } from './theia-backend';
import { TheiaWindow } from './theia-window';
import { AcpChat } from './acp-chat-view';

const FAKE_AGENT = path.join(REPO_ROOT, 'packages', 'acp-client', 'lib', 'node', 'test', 'fake-acp-agent-main.js');

/**
 * A user-defined ACP agent (the scripted fake agent, configured in the user's settings) in the
 * chat of a real browser: the buffers it reads, the terminals it runs, Stop, a crash, a missing agent.
 */
describe('ACP chat: user-defined agents, their file reads, terminals, cancel and crashes', function (): void {
    this.timeout(300000);
    let sandbox: Sandbox;
    let workspace: string;
    let backend: TheiaBackend;
    let window: TheiaWindow;
    let chat: AcpChat;
    let agentLog: string;

    before(async () => {
        sandbox = createSandbox();
        agentLog = path.join(sandbox.tmp, 'fake-agent.jsonl');
        fs.writeFileSync(path.join(sandbox.theiaConfig, 'settings.json'), JSON.stringify({
            'security.workspace.trust.enabled': false,
            // Theia saves after a delay by default; the unsaved-buffer read needs a buffer that stays unsaved.
            'files.autoSave': 'off',
            'ai-features.chat.defaultChatAgent': 'Fake',
            'aiCliCompanion.acp.agents': [
                { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: agentLog } },
                { name: 'Missing', command: 'no-such-acp-agent', installCommand: 'npm install -g no-such-acp-agent' }
            ]
        }));
        workspace = createWorkspace(sandbox, 'project', { 'notes.md': '# Notes\n' });
        backend = new TheiaBackend(sandbox, workspace);
        await backend.start();
        window = await TheiaWindow.open(sandbox, backend.url);
        chat = new AcpChat(window, backend);
    });

    after(async () => {
        await window?.close();
        await backend?.stop();
        sandbox?.dispose();
    });

    beforeEach(() => chat.newChat());

    const agentCalls = () => fs.existsSync(agentLog) ? fs.readFileSync(agentLog, 'utf8').trim().split('\n').map(line => JSON.parse(line)) : [];

    it('reads a file from its open editor, unsaved edits included', async () => {
        await window.openFile('notes.md');
        await window.page.keyboard.press('Control+End');
        await window.page.keyboard.type('typed but not saved');
        const response = await chat.send(`read ${path.join(workspace, 'notes.md')}`);
        await chat.finished(response);
        expect(await chat.text(response)).to.contain(JSON.stringify('# Notes\ntyped but not saved'));
        expect(fs.readFileSync(path.join(workspace, 'notes.md'), 'utf8')).to.equal('# Notes\n');
    });

    it('runs its command in a Theia terminal the user can watch, and gets the output and exit code', async () => {
        const response = await chat.send('terminal echo from-the-agent; exit 3');
        await chat.finished(response);
        const reported = JSON.parse((await chat.text(response)).match(/\{"exit".*\}/)![0]);
        expect(reported.exit).to.deep.equal({ exitCode: 3, signal: null });
        expect(reported.output.output).to.equal('from-the-agent\n');
        const tab = window.page.locator('.lm-TabBar-tab', { hasText: 'Fake: sh -c echo from-the-agent' });
        await tab.first().waitFor({ state: 'attached', timeout: 20000 });
    });

    it('Stop cancels the turn, withdraws its open question, and the next message is answered', async () => {
        const response = await chat.send('ask');
        const question = response.locator('.theia-QuestionPartRenderer-root');
        await question.waitFor({ state: 'visible', timeout: 30000 });
        expect(await question.innerText()).to.contain('Fake asks to run: rm -rf build');
        await chat.stop();
        await until(() => agentCalls().some(call => call.method === 'session/cancel'), 'session/cancel to reach the agent', 20000);
        await until(async () => (await question.locator('button.theia-QuestionPartRenderer-option:disabled').count()) === 2, 'the question to be withdrawn', 20000)
            .catch(async error => { throw new Error(`${error.message}; ${await window.describeForFailure('acp-stop')}: ${await question.innerHTML()}`); });
        const next = await chat.send('echo still listening');
        await chat.finished(next);
        expect(await chat.text(next)).to.contain('echo still listening');
    });

    it('says so when the agent crashes, and the next message restarts it', async () => {
        const initializedBefore = agentCalls().filter(call => call.method === 'initialize').length;
        const crashed = await chat.send('crash');
        await chat.finished(crashed);
        const error = await crashed.locator('.theia-ChatPart-Error-message').innerText();
        expect(error).to.match(/exited with code 3/);
        expect(error).to.contain('fatal: simulated crash of the fake agent');
        expect(error).to.contain('The next message restarts the agent.');
        expect((await window.notifications()).some(text => /Chat request failed: .*exited with code 3/.test(text))).to.equal(true);
        const next = await chat.send('echo back again');
        await chat.finished(next);
        expect(await chat.text(next)).to.contain('echo back again');
        expect(agentCalls().filter(call => call.method === 'initialize').length - initializedBefore).to.equal(2);
    });

    it('switches the chat\'s mode and model from the command palette', async () => {
        const response = await chat.send('echo first');
        await chat.finished(response);
        await window.runCommand('Set Agent Mode');
        await window.pickQuickItem('YOLO');
        await until(() => agentCalls().some(call => call.method === 'session/set_mode' && call.params.modeId === 'yolo'), 'session/set_mode yolo', 20000);
        await window.runCommand('Set Agent Model');
        await window.pickQuickItem('Fake Flash');
        await until(() => agentCalls().some(call => call.method === 'session/set_model' && call.params.modelId === 'fake-flash'), 'session/set_model fake-flash', 20000);
        expect(backend.log).to.match(/mode yolo/).and.to.match(/model fake-flash/);
    });

    it('an agent that is not installed answers with its install command', async () => {
        const response = await chat.send('@Missing hello', true);
        await chat.finished(response);
        const error = await response.locator('.theia-ChatPart-Error-message').innerText();
        expect(error).to.contain('Missing is not installed ("no-such-acp-agent" was not found). Install it with: npm install -g no-such-acp-agent');
    });
});
