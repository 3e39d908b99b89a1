import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { MockGeminiApi } from '../mocks/mock-gemini-api';
import { descendantsOf, readCommandLine, until } from '../support/processes';
import { prepareGeminiAcp } from '../clis/gemini-acp-setup';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { updateTheiaSettings } from '../support/sandbox';

const SHOUT_MCP_SERVER = path.join(__dirname, '..', 'mocks', 'shout-mcp-server-main.js');

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';
const PLAN = 'step one\nstep two\nstep three\nstep four\nstep five\n';
/** The agent's rewrite of PLAN: three separate changes (lines 1, 3 and 5). */
const PLAN_PROPOSED = 'STEP ONE\nstep two\nSTEP THREE\nstep four\nSTEP FIVE\n';

/**
 * The real `gemini --acp` as a Theia AI chat agent, offline against a local mock of the Gemini
 * API: the chat streams its answer, a write_file turn asks permission with the change in the
 * Monaco diff review, and the file is written (by the backend, shown in Theia) once the user allows it.
 */
describe('ACP chat: the real gemini --acp in Theia AI\'s chat', function (): void {
    this.timeout(300000);
    const mock = new MockGeminiApi(contents => {
        const result = MockGeminiApi.lastToolResult(contents);
        if (result) {
            return { text: result.name === 'write_file' ? 'The file is written.' : `The IDE answered: ${JSON.stringify(result.response)}` };
        }
        const text = MockGeminiApi.lastUserText(contents);
        const tool = /\[TOOL:(\w+)(?::(\{[^\]]*\}))?\]/.exec(text);
        if (tool) {
            return { functionCall: { name: tool[1], args: tool[2] ? JSON.parse(tool[2]) : {} } };
        }
        const rewrite = /\[REWRITE:([^\]]+)\]/.exec(text);
        if (rewrite) {
            return { functionCall: { name: 'write_file', args: { file_path: rewrite[1], content: PLAN_PROPOSED } } };
        }
        const write = /\[WRITE:([^\]]+)\]/.exec(text);
        if (write) {
            return { functionCall: { name: 'write_file', args: { file_path: write[1], content: 'written by gemini\nthrough theia\n' } } };
        }
        return { text: 'Hello from the **mock** Gemini.' };
    });
    before(() => mock.start());
    after(() => mock.stop());
    const files = { 'README.md': '# Project\n', 'plan.txt': PLAN, 'context.txt': 'alpha\nbeta\ngamma\ndelta\n' };
    let shoutLog = '';
    const bed = AcpChatTestbed.install(files, sandbox => {
        prepareGeminiAcp(sandbox, mock.url, 'fake-offline-key');
        shoutLog = path.join(sandbox.tmp, 'shout-mcp.jsonl');
        // A user's MCP server for Theia AI (user settings), which the agent is given next to the IDE's own.
        updateTheiaSettings(sandbox, { 'ai-features.mcp.mcpServers': { shout: { command: process.execPath, args: [SHOUT_MCP_SERVER], env: { SHOUT_MCP_LOG: shoutLog } } } });
    });

    beforeEach(() => bed.chat.newChat());

    it('streams the agent\'s answer into the chat', async () => {
        const response = await bed.chat.send('Say hello');
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('Hello from the mock Gemini.');
        const header = await response.getAttribute('aria-label');
        expect(header).to.match(/Gemini/);
        expect(mock.requests.some(request => MockGeminiApi.lastUserText(request.contents).includes('Say hello'))).to.equal(true);
        // The turn's snapshots ran git from the spawn helper, found in the app's bundled backend, not forked from the backend.
        const helpers = descendantsOf(bed.backend.pid).filter(pid => readCommandLine(pid).includes('spawn-helper-main.js'));
        expect(helpers, 'the spawn helper, a child of the backend').to.have.length(1);
    });

    it('asks permission for a write with the change in a Monaco diff; accepting it there writes the file', async () => {
        const target = path.join(bed.workspace, 'notes.txt');
        const response = await bed.chat.send(`Write the notes [WRITE:${target}]`);
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60000 }).catch(async error => {
            throw new Error(`${error.message}; ${await bed.window.describeForFailure('acp-permission')}; backend log:\n${bed.backend.log.slice(-3000)}`);
        });
        expect(await question.innerText()).to.match(/Gemini asks to run: Writing to notes\.txt/);
        const options = await question.locator('button.theia-QuestionPartRenderer-option').allInnerTexts();
        expect(options.map(option => option.trim().split('\n')[0])).to.include.members(['Allow', 'Allow for this session', 'Reject']);

        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });
        const title = await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current').innerText();
        expect(title).to.match(/notes\.txt ↔ proposed by Gemini/);
        expect(fs.existsSync(target), 'nothing is written before the user decides').to.equal(false);
        await bed.window.saveDocScreenshot('acp-permission-diff');
        await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();

        await until(() => fs.existsSync(target) && fs.readFileSync(target, 'utf8') === 'written by gemini\nthrough theia\n', 'the file to be written', 30000);
        await bed.chat.finished(response);
        const text = await bed.chat.text(response);
        expect(text).to.contain('The file is written.');
        expect(await question.locator('button.theia-QuestionPartRenderer-option.selected').innerText()).to.match(/^Allow/);
        expect(await bed.window.page.locator(DIFF_EDITOR).count()).to.equal(0);
        expect(bed.backend.log).to.match(/the agent wrote .*notes\.txt/);
    });

    it('a permission diff with one change rejected writes the reviewed text, says so, and tells the agent with the next message', async () => {
        const target = path.join(bed.workspace, 'plan.txt');
        const response = await bed.chat.send(`Shout the odd steps [REWRITE:${target}]`);
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60000 });
        await until(async () => await bed.window.page.locator(`${DIFF_EDITOR} .editor.modified .line-insert`).count() >= 3, 'the diff of three changes', 20000);
        await bed.window.diff.focusProposal();
        await bed.window.goTo(3, 1);
        await bed.window.runCommand('CLI Companion: Reject Change', { keepFocus: true });
        await until(async () => (await bed.window.diff.proposalText()).includes('\nstep three\n'), 'the second change to be reverted', 10000);
        await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();

        const reviewed = 'STEP ONE\nstep two\nstep three\nstep four\nSTEP FIVE\n';
        await until(() => fs.readFileSync(target, 'utf8') === reviewed, 'the reviewed text to be written', 30000)
            .catch(error => { throw new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(target, 'utf8'))}`); });
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('Wrote').and.to.contain('as you reviewed it');

        const next = await bed.chat.send('What now?');
        await bed.chat.finished(next);
        const request = mock.requests.find(candidate => MockGeminiApi.lastUserText(candidate.contents).includes('What now?'));
        expect(MockGeminiApi.lastUserText(request!.contents)).to.contain(`when you wrote ${target}, the user had reviewed your proposed change`);
    });

    it('sends #file and #selection as embedded resources (the file, the selected lines with their range), and the chat says what was attached', async () => {
        await bed.window.openFile('context.txt');
        await bed.window.goTo(2, 1);
        await bed.window.page.keyboard.press('Shift+ArrowDown');
        await bed.window.page.keyboard.press('Shift+ArrowDown');
        const response = await bed.chat.send('Explain #file:README.md and #selection please', true);
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('Attached for Gemini:').and.to.contain('README.md (content)').and.to.contain('context.txt:2-3 (content)');
        // What Gemini CLI made of the resources, in the request it sent the model.
        const sent = MockGeminiApi.lastUserText(mock.requests[mock.requests.length - 1].contents);
        expect(sent).to.match(/Content from @file:\/\/\S*\/README\.md:\n# Project\n/);
        expect(sent).to.match(/Content from @file:\/\/\S*\/context\.txt#L2-3:\nbeta\ngamma\n/);
    });

    it('gives the agent the window\'s IDE tools: the model sees them and a call reaches this window', async () => {
        expect(mock.requests[0].tools).to.include.members(['mcp_theia_getWorkspaceFolders', 'mcp_theia_getDiagnostics', 'mcp_theia_getOpenEditors', 'mcp_theia_openFile']);
        expect(mock.requests[0].tools).to.not.include('mcp_theia_openDiff');
        const response = await bed.chat.send('Which folders are open? [TOOL:mcp_theia_getWorkspaceFolders]');
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60000 });
        expect(await question.innerText()).to.match(/getWorkspaceFolders \(theia MCP Server\)/);
        await question.locator('button.theia-QuestionPartRenderer-option', { hasText: 'allow_once' }).click();
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('The IDE answered:').and.to.contain(bed.workspace);
        const answered = JSON.stringify(MockGeminiApi.lastToolResult(mock.requests[mock.requests.length - 1].contents));
        expect(answered).to.contain('mcp_theia_getWorkspaceFolders')
            .and.to.contain(JSON.stringify(JSON.stringify({ folders: [{ path: bed.workspace, name: 'project' }] })).slice(1, -1));
        expect(await bed.window.statusTooltip()).to.contain('ACP agent Gemini');
    });

    it('gives the agent the MCP servers configured for Theia AI: the model sees their tools and a call reaches the server', async () => {
        expect(mock.requests[0].tools).to.include('mcp_shout_shout');
        const response = await bed.chat.send('Shout it [TOOL:mcp_shout_shout:{"text":"hello from theia"}]');
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60000 });
        await question.locator('button.theia-QuestionPartRenderer-option', { hasText: 'allow_once' }).click();
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('HELLO FROM THEIA');
        expect(fs.readFileSync(shoutLog, 'utf8').trim().split('\n').map(line => JSON.parse(line))).to.deep.equal([{ tool: 'shout', text: 'hello from theia' }]);
    });

    it('in the mode that edits without asking, the agent\'s write is not asked but is listed in Pending Changes, where Undo removes it', async () => {
        const first = await bed.chat.send('Say hello');
        await bed.chat.finished(first);
        const explain = async (error: Error) => { throw new Error(`${error.message}; ${await bed.window.describeForFailure('acp-auto-edit')}`); };
        await bed.window.runCommand('Set Agent Mode').catch(explain);
        await bed.window.pickQuickItem('Auto').catch(explain);
        await until(() => /mode autoEdit/.test(bed.backend.log), 'the session in autoEdit mode', 20000);
        const modeLogAfter = () => bed.backend.log.split(/mode autoEdit/).pop()!;
        const target = path.join(bed.workspace, 'auto.txt');
        const response = await bed.chat.send(`Write it [WRITE:${target}]`);
        // The chat input's mode selector still shows the old mode: sending must not switch the session back.
        await until(() => fs.existsSync(target) || /mode default/.test(modeLogAfter()), 'the write (or the mode reset)', 60000);
        expect(modeLogAfter(), 'the prompt kept the mode Set Agent Mode chose').not.to.match(/mode default/);
        await until(() => fs.readFileSync(target, 'utf8') === 'written by gemini\nthrough theia\n', 'the file to be written', 20000);
        await bed.chat.finished(response);
        expect(await response.locator('.theia-QuestionPartRenderer-root').count(), 'no permission asked').to.equal(0);

        await bed.window.runCommand('CLI Companion: Show Pending Changes');
        const item = bed.window.page.locator('.pending-review [data-applied]', { hasText: 'auto.txt' });
        await item.waitFor({ state: 'visible', timeout: 10000 }).catch(explain);
        await item.locator('[data-action="undo"]').click();
        await until(() => !fs.existsSync(target), 'Undo to remove the file the agent created', 10000);
        await until(async () => await item.count() === 0, 'the entry to go', 10000);
    });
});
