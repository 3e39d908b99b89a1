import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { prepareClaudeAcp } from '../clis/claude-acp-setup';
import { MockAnthropicApi } from '../mocks/mock-anthropic-api';
import { MockOpenAiApi } from '../mocks/mock-openai-api';
import { MockOpenAiResponsesApi } from '../mocks/mock-openai-responses-api';
import { prepareCodexAcp } from '../clis/codex-acp-setup';
import { until } from '../support/processes';
import { prepareQwenAcp } from '../clis/qwen-acp-setup';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';
const SESSION_BAR = '#chat-view-widget .acp-session-bar';
const LETTERS = 'alpha\nbeta\ngamma\n';
const NUMBERS = 'zero\none\ntwo\nthree\nfour\n';

/**
 * The agents the chat offers besides Gemini CLI, each the real published client offline against a
 * local mock of its model API, all in one window: Claude Code through its ACP adapter
 * (`claude-agent-acp` driving the pinned `claude`), Codex through its (`codex-acp`, against a mock of
 * the Responses API), and Qwen Code's own ACP mode (`qwen --acp`).
 */
describe('ACP chat: Claude Code and Codex (through their adapters) and Qwen Code as chat agents', function (): void {
    this.timeout(300000);
    const anthropic = new MockAnthropicApi(request => {
        if (!MockAnthropicApi.isMainConversation(request)) {
            return MockAnthropicApi.sideAnswer(request);
        }
        const letters = path.join(bed.workspace, 'letters.txt');
        const result = MockAnthropicApi.lastToolResult(request);
        if (request.system.includes('cc_is_subagent=true')) {
            // A subagent's own conversation (Claude Code marks its requests so).
            return result?.name === 'Read' ? { text: 'The subagent read the letters.' } : { toolUse: { name: 'Read', input: { file_path: letters } } };
        }
        if (result?.name === 'Agent') {
            return { text: `The subagent reported: ${result.content}` };
        }
        if (MockAnthropicApi.lastUserText(request).includes('[DELEGATE]')) {
            // Once: a later request of the turn (the subagent's end, told to the main agent) gets words, not another subagent.
            const started = request.messages.some(message => typeof message.content !== 'string' && message.content.some(block => block.name === 'Agent'));
            return started ? { text: 'The subagent is done.' } : {
                toolUse: {
                    name: 'Agent', input: { description: 'Read the letters', prompt: 'Read letters.txt and report', subagent_type: 'general-purpose', run_in_background: false }
                }
            };
        }
        if (result?.name === 'Read') {
            // Claude Code edits only what it has read; its Edit sends the replaced snippet, not the whole file.
            return { toolUse: { name: 'Edit', input: { file_path: letters, old_string: 'alpha\nbeta\ngamma', new_string: 'ALPHA\nbeta\nGAMMA' } } };
        }
        if (result?.name === 'AskUserQuestion') {
            return { text: `You answered: ${result.content}` };
        }
        if (result) {
            return { text: 'Claude edited the letters.' };
        }
        if (MockAnthropicApi.lastUserText(request).includes('[ASK]')) {
            // Claude Code's question tool, offered only to a client that can show forms (ACP elicitation).
            return {
                toolUse: {
                    name: 'AskUserQuestion', input: {
                        questions: [{
                            question: 'Which format should the report use?', header: 'Format', multiSelect: false,
                            options: [{ label: 'JSON', description: 'For machines' }, { label: 'YAML', description: 'For people' }]
                        }]
                    }
                }
            };
        }
        return MockAnthropicApi.lastUserText(request).includes('[EDIT]')
            ? { toolUse: { name: 'Read', input: { file_path: letters } } }
            : { text: 'Hello from the mock Claude.' };
    });
    const openai = new MockOpenAiApi(request => {
        const result = MockOpenAiApi.lastToolResult(request.messages);
        if (request.messages.some(message => message.role === 'user' && MockOpenAiApi.textOf(message.content).includes('[SUBTASK]'))) {
            // A subagent's own conversation: its task is the prompt the agent tool call gave it.
            return result?.name === 'read_file' ? { text: 'The Qwen subagent read the letters.' }
                : { toolCall: { name: 'read_file', args: { file_path: path.join(bed.workspace, 'letters.txt') } } };
        }
        if (result?.name === 'agent') {
            return { text: 'The subagent reported back.' };
        }
        if (MockOpenAiApi.lastUserText(request.messages).includes('[DELEGATE]') && !result) {
            // In the foreground: Qwen Code reports a background agent's work only when it ends.
            return {
                toolCall: {
                    name: 'agent',
                    args: { description: 'Read the letters', prompt: 'Read letters.txt and report [SUBTASK]', subagent_type: 'general-purpose', run_in_background: false }
                }
            };
        }
        if (result) {
            return { text: `Done (${result.name}).` };
        }
        return MockOpenAiApi.lastUserText(request.messages).includes('[WRITE]')
            ? { toolCall: { name: 'write_file', args: { file_path: path.join(bed.workspace, 'qwen.txt'), content: 'written by qwen\n' } } }
            : { text: 'Hello from the mock Qwen.' };
    });
    const responses = new MockOpenAiResponsesApi(request => {
        const output = MockOpenAiResponsesApi.lastToolOutput(request.input);
        if (output?.name === 'request_user_input') {
            return { text: `You answered: ${output.output}` };
        }
        if (output) {
            return { text: 'Codex patched it.' };
        }
        if (MockOpenAiResponsesApi.lastUserText(request.input).includes('[ASK]')) {
            // Codex asks only in its Plan collaboration mode, where it offers the tool.
            return request.tools.some(tool => tool.name === 'request_user_input') ? {
                functionCall: {
                    name: 'request_user_input', arguments: {
                        questions: [{
                            id: 'report_format', header: 'Format', question: 'Which format should the report use?',
                            options: [{ label: 'JSON', description: 'For machines' }, { label: 'YAML', description: 'For people' }]
                        }]
                    }
                }
            } : { text: 'No question tool was offered.' };
        }
        return MockOpenAiResponsesApi.lastUserText(request.input).includes('[PATCH]')
            ? { patch: '*** Begin Patch\n*** Update File: numbers.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch' }
            : { text: 'Hello from the mock Codex.' };
    });
    const mocks = [anthropic, openai, responses];
    before(() => Promise.all(mocks.map(mock => mock.start())));
    after(() => Promise.all(mocks.map(mock => mock.stop())));
    const bed = AcpChatTestbed.install({ 'letters.txt': LETTERS, 'numbers.txt': NUMBERS }, (sandbox, workspace) => {
        prepareClaudeAcp(sandbox, anthropic.url);
        prepareQwenAcp(sandbox, openai.url);
        prepareCodexAcp(sandbox, responses.url, workspace);
    });

    beforeEach(() => bed.chat.newChat());

    const explain = async (error: Error, what: string) => {
        throw new Error(`${error.message}; ${await bed.window.describeForFailure(what)}; backend log:\n${bed.backend.log.slice(-3000)}`);
    };

    /**
     * Starts the chat's session with a greeting, then switches it with *Set Agent Mode…* the way a user
     * does who wants to review every edit: the current adapters start in modes that edit without asking.
     */
    const setMode = async (agent: string, modeName: string, logged: RegExp) => {
        const hello = await bed.chat.send(`${agent} Say hello`, true);
        await bed.chat.finished(hello).catch(error => explain(error, `${agent}-hello`));
        const logBefore = bed.backend.log.length;
        await bed.window.runCommand('Set Agent Mode').catch(error => explain(error, `${agent}-set-mode`));
        await bed.window.pickQuickItem(modeName).catch(error => explain(error, `${agent}-pick-mode`));
        await until(() => logged.test(bed.backend.log.slice(logBefore)), `the session in ${modeName} mode`, 20000);
    };

    it('Claude Code answers through its ACP adapter', async () => {
        const response = await bed.chat.send('@Claude Say hello', true);
        await bed.chat.finished(response).catch(error => explain(error, 'claude-hello'));
        expect(await bed.chat.text(response)).to.contain('Hello from the mock Claude.');
        expect(await response.getAttribute('aria-label')).to.match(/Claude/);
        expect(anthropic.requests.some(request => MockAnthropicApi.lastUserText(request).includes('Say hello'))).to.equal(true);
    });

    it('Claude Code\'s settings show above the chat input; a model chosen there is the one the next turn asks the model API for', async () => {
        const hello = await bed.chat.send('@Claude Say hello', true);
        await bed.chat.finished(hello).catch(error => explain(error, 'claude-settings-hello'));
        const model = bed.window.page.locator(`${SESSION_BAR} [data-config-id="model"] select`);
        await model.waitFor({ state: 'visible', timeout: 20000 }).catch(error => explain(error, 'claude-settings-bar'));
        // Claude's adapter lists mode, model, thought level and more; "default" is the account's default (Opus here).
        const ids = await bed.window.page.locator(`${SESSION_BAR} .acp-setting`).evaluateAll(nodes => nodes.map(node => node.getAttribute('data-config-id')));
        expect(ids.slice(0, 3)).to.deep.equal(['mode', 'model', 'effort']);
        expect(await model.locator('option').evaluateAll(options => options.map(option => (option as HTMLOptionElement).value))).to.include('haiku');
        expect(anthropic.requests.filter(MockAnthropicApi.isMainConversation).map(request => request.model)).to.not.include.members(['haiku']);
        await model.selectOption('haiku');
        await until(() => bed.backend.log.includes('model = "haiku"'), 'the agent to take the model', 20000);
        const before = anthropic.requests.length;
        const next = await bed.chat.send('@Claude Say hello again', true);
        await bed.chat.finished(next).catch(error => explain(error, 'claude-settings-next'));
        const models = anthropic.requests.slice(before).filter(MockAnthropicApi.isMainConversation).map(request => request.model ?? '');
        expect(models, 'the next turn\'s requests').to.not.be.empty;
        expect(models.every(name => /haiku/.test(name)), JSON.stringify(models)).to.equal(true);
        expect(await model.inputValue()).to.equal('haiku');
    });

    it('Claude Code asks its question (AskUserQuestion) as a form in the chat; the answer chosen there reaches the model', async () => {
        const response = await bed.chat.send('@Claude Pick a format [ASK]', true);
        const form = response.locator('form.acp-question');
        await form.waitFor({ state: 'visible', timeout: 60000 }).catch(error => explain(error, 'claude-question'));
        expect(await form.innerText()).to.contain('Which format should the report use?');
        const asked = anthropic.requests.filter(MockAnthropicApi.isMainConversation).at(-1)!;
        expect(asked.tools, 'the question tool is offered to a client that shows forms').to.include('AskUserQuestion');
        await form.locator('select').first().selectOption({ label: 'YAML' });
        await form.locator('button[type="submit"]').click();
        await bed.chat.finished(response).catch(error => explain(error, 'claude-question-answered'));
        expect(await bed.chat.text(response)).to.match(/You answered: .*YAML/);
    });

    it('Claude Code\'s subagent (its Agent tool) works under the tool call that started it: its tool calls and its words', async () => {
        // Auto mode (the default model's default) needs Anthropic's server-side check, which the mock cannot give.
        const hello = await bed.chat.send('@Claude Say hello', true);
        await bed.chat.finished(hello).catch(error => explain(error, 'claude-subagent-hello'));
        await bed.window.page.locator(`${SESSION_BAR} [data-config-id="mode"] select`).selectOption({ label: 'Accept edits' })
            .catch(error => explain(error, 'claude-subagent-mode'));
        await until(() => bed.backend.log.includes('mode = "acceptEdits"'), 'the session in Accept edits mode', 20000);
        const response = await bed.chat.send('@Claude Ask a subagent about the letters [DELEGATE]', true);
        await bed.chat.finished(response).catch(error => explain(error, 'claude-subagent'));
        expect(anthropic.requests.filter(request => request.system.includes('cc_is_subagent=true')).length, 'the subagent\'s requests').to.equal(2);
        const subagent = response.locator('.acp-subagent');
        expect(await subagent.count()).to.equal(1);
        await subagent.locator('.acp-subagent-summary').click();
        const work = await subagent.locator('.acp-subagent-parts').innerText();
        expect(work, 'the subagent\'s Read').to.match(/Read/);
        expect(work, 'the subagent\'s words (the chat asks for its transcript)').to.contain('The subagent read the letters.');
        const ownText = await response.locator('.acp-agent-markdown').evaluateAll(nodes => nodes.filter(node => !node.closest('.acp-subagent'))
            .map(node => (node as HTMLElement).innerText).join(' '));
        expect(ownText).to.contain('The subagent reported:');
    });

    it('Claude Code in its own default mode (Accept edits: the mock model has no Auto) edits by itself; the turn lists the file and Restore puts it back', async () => {
        const letters = path.join(bed.workspace, 'letters.txt');
        const response = await bed.chat.send('@Claude Shout the first and last [EDIT]', true);
        await bed.chat.finished(response).catch(error => explain(error, 'claude-default-mode'));
        expect(fs.readFileSync(letters, 'utf8'), 'Claude\'s own edit').to.equal('ALPHA\nbeta\nGAMMA\n');
        expect(await response.locator('.theia-QuestionPartRenderer-root').count(), 'nothing asked in this mode').to.equal(0);
        expect(await bed.chat.text(response)).to.contain('Claude edited the letters.').and.to.contain('Changed in this turn: letters.txt.');
        await response.locator('button', { hasText: 'Restore to Before This Turn' }).click();
        await until(() => fs.readFileSync(letters, 'utf8') === LETTERS, 'letters.txt as it was before the turn', 20000);
    });

    it('Claude Code in Manual mode (chosen above the chat input): its Edit is reviewed as the whole file; one change rejected, the file has the reviewed text', async () => {
        const hello = await bed.chat.send('@Claude Say hello', true);
        await bed.chat.finished(hello).catch(error => explain(error, 'claude-manual-hello'));
        await bed.window.page.locator(`${SESSION_BAR} [data-config-id="mode"] select`).selectOption({ label: 'Manual' })
            .catch(error => explain(error, 'claude-manual-mode'));
        await until(() => bed.backend.log.includes('mode = "default"'), 'the session in Manual mode', 20000);
        const letters = path.join(bed.workspace, 'letters.txt');
        const response = await bed.chat.send('@Claude Shout the first and last [EDIT]', true);
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60000 }).catch(error => explain(error, 'claude-edit'));
        await until(async () => await bed.window.diff.proposalText() === 'ALPHA\nbeta\nGAMMA\n', 'the whole file proposed', 20000)
            .catch(async error => { throw new Error(`${error.message}: ${JSON.stringify(await bed.window.diff.proposalText())}`); });
        expect(fs.readFileSync(letters, 'utf8'), 'nothing written before the user decides').to.equal(LETTERS);
        await bed.window.diff.focusProposal();
        await bed.window.goTo(1, 1);
        await bed.window.runCommand('CLI Companion: Reject Change', { keepFocus: true });
        await until(async () => (await bed.window.diff.proposalText()).startsWith('alpha\n'), 'the first change rejected', 10000);
        await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();

        // Claude Code writes its own text itself; the IDE then puts the reviewed text in its place.
        await until(() => fs.readFileSync(letters, 'utf8') === 'alpha\nbeta\nGAMMA\n', 'the reviewed text in the file', 60000)
            .catch(error => { throw new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(letters, 'utf8'))}`); });
        await bed.chat.finished(response);
        const text = await bed.chat.text(response);
        expect(text).to.contain('as you reviewed it').and.to.contain('Claude edited the letters.');
        expect(bed.backend.log).to.match(/replaced the agent's write of \S*letters\.txt with the user's reviewed text/);

        // The turn is a checkpoint, though Claude Code wrote the file itself: restoring it brings the file back.
        expect(text).to.contain('Changed in this turn: letters.txt.');
        await response.locator('button', { hasText: 'Restore to Before This Turn' }).click();
        await until(() => fs.readFileSync(letters, 'utf8') === LETTERS, 'letters.txt as it was before the turn', 20000);
    });

    it('Qwen Code answers, and writes a file only after the user allows it in the diff review', async () => {
        const hello = await bed.chat.send('@Qwen Say hello', true);
        await bed.chat.finished(hello).catch(error => explain(error, 'qwen-hello'));
        expect(await bed.chat.text(hello)).to.contain('Hello from the mock Qwen.');

        const target = path.join(bed.workspace, 'qwen.txt');
        const response = await bed.chat.send('@Qwen Write it [WRITE]', true);
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60000 }).catch(error => explain(error, 'qwen-permission'));
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });
        expect(fs.existsSync(target), 'nothing written before the user decides').to.equal(false);
        await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();
        await until(() => fs.existsSync(target) && fs.readFileSync(target, 'utf8') === 'written by qwen\n', 'the file written', 30000);
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('Done (write_file).');
        expect(bed.backend.log).to.match(/the agent wrote \S*qwen\.txt/);
    });

    it('Qwen Code\'s subagent (its agent tool) works under the tool call that started it: its read and its words', async () => {
        const response = await bed.chat.send('@Qwen Ask a subagent about the letters [DELEGATE]', true);
        // Qwen Code asks before it starts a subagent in its default mode.
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60000 }).catch(error => explain(error, 'qwen-subagent-permission'));
        await question.locator('button.theia-QuestionPartRenderer-option', { hasText: /^Allow/ }).last().click();
        await bed.chat.finished(response).catch(error => explain(error, 'qwen-subagent'));
        const subagent = response.locator('.acp-subagent');
        await subagent.first().waitFor({ state: 'visible', timeout: 20000 }).catch(error => explain(error, 'qwen-subagent-nested'));
        expect(await subagent.count()).to.equal(1);
        await subagent.locator('.acp-subagent-summary').click();
        const work = await subagent.locator('.acp-subagent-parts').innerText();
        expect(work, 'the subagent\'s read_file').to.match(/letters\.txt/);
        expect(work, 'the subagent\'s words').to.contain('The Qwen subagent read the letters.');
        expect(await bed.chat.text(response)).to.contain('The subagent reported back.');
    });

    it('Codex answers through its ACP adapter; in its default mode (Auto review) it patches by itself, the turn lists the file and Restore puts it back', async () => {
        const hello = await bed.chat.send('@Codex Say hello', true);
        await bed.chat.finished(hello).catch(error => explain(error, 'codex-hello'));
        const helloText = await bed.chat.text(hello);
        expect(helloText).to.contain('Hello from the mock Codex.');
        expect(helloText, 'a model Codex knows').not.to.contain('Model metadata');

        const numbers = path.join(bed.workspace, 'numbers.txt');
        const response = await bed.chat.send('@Codex Shout two [PATCH]', true);
        await bed.chat.finished(response).catch(error => explain(error, 'codex-default-mode'));
        expect(fs.readFileSync(numbers, 'utf8'), 'Codex\'s own patch').to.equal('zero\none\nTWO\nthree\nfour\n');
        expect(await bed.chat.text(response)).to.contain('Codex patched it.').and.to.contain('Changed in this turn: numbers.txt.');
        await response.locator('button', { hasText: 'Restore to Before This Turn' }).click();
        await until(() => fs.readFileSync(numbers, 'utf8') === NUMBERS, 'numbers.txt as it was before the turn', 20000);
    });

    it('Codex in its Plan collaboration mode (chosen above the chat input) asks its question as a form; the answer reaches the model and Codex goes on', async () => {
        const hello = await bed.chat.send('@Codex Say hello', true);
        await bed.chat.finished(hello).catch(error => explain(error, 'codex-question-hello'));
        const collaboration = bed.window.page.locator(`${SESSION_BAR} [data-config-id="collaboration_mode"] select`);
        await collaboration.selectOption('plan').catch(error => explain(error, 'codex-plan-mode'));
        await until(() => bed.backend.log.includes('collaboration_mode = "plan"'), 'Codex in its Plan collaboration mode', 20000);
        const response = await bed.chat.send('@Codex Pick a format [ASK]', true);
        const form = response.locator('form.acp-question');
        await form.waitFor({ state: 'visible', timeout: 60000 }).catch(error => explain(error, 'codex-question'));
        expect(await form.innerText()).to.contain('Which format should the report use?');
        await form.locator('select').first().selectOption({ label: 'YAML' });
        await form.locator('button[type="submit"]').click();
        await bed.chat.finished(response).catch(error => explain(error, 'codex-question-answered'));
        expect(await bed.chat.text(response)).to.match(/You answered: .*YAML/);
    });

    it('Codex in Read-only mode (Set Agent Mode…): its patch (a snippet with context) is reviewed as the whole file and written once allowed', async () => {
        await setMode('@Codex', 'Read-only', /mode read-only/);
        const numbers = path.join(bed.workspace, 'numbers.txt');
        const response = await bed.chat.send('@Codex Shout two [PATCH]', true);
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60000 }).catch(error => explain(error, 'codex-patch'));
        await until(async () => await bed.window.diff.proposalText() === 'zero\none\nTWO\nthree\nfour\n', 'the whole file proposed', 20000)
            .catch(async error => { throw new Error(`${error.message}: ${JSON.stringify(await bed.window.diff.proposalText())}`); });
        expect(fs.readFileSync(numbers, 'utf8'), 'nothing written before the user decides').to.equal(NUMBERS);
        await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();
        await until(() => fs.readFileSync(numbers, 'utf8') === 'zero\none\nTWO\nthree\nfour\n', 'Codex to write the file', 60000);
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('Codex patched it.').and.to.contain('Changed in this turn: numbers.txt.');
    });
});
