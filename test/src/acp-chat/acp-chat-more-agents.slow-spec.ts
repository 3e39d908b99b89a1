import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { prepareCopilotAcp } from '../clis/copilot-acp-setup';
import { MockOpenAiApi, MockOpenAiTurn, OpenAiRequest } from '../mocks/mock-openai-api';
import { FAKE_OPENCODE_API_KEY, prepareOpenCodeAcp } from '../clis/opencode-acp-setup';
import { descendantsOf, listeningPorts, until } from '../support/processes';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';
const ACCEPT = '#theia-main-content-panel .lm-TabBar-toolbar .codicon-check';
const LETTERS = 'alpha\nbeta\ngamma\n';

/** What an agent's model is asked to do: `[WRITE]` a new file, `[EDIT]` an existing one, else say hello. */
interface AgentScript {
    readonly mention: string;
    readonly hello: string;
    /** True when the agent writes with `fs/write_text_file` (the IDE writes), false when it writes files itself. */
    readonly writesThroughIde: boolean;
    /** The tool call that writes `newFile` with `content`. */
    write(newFile: string, content: string): MockOpenAiTurn;
    /** The tool call that replaces `oldText` with `newText` in `file`. */
    edit(file: string, oldText: string, newText: string): MockOpenAiTurn;
}

/**
 * A mock model for one agent. Requests without tools are side requests (OpenCode has its small model
 * write the session's title on the first prompt): they get a title, never a tool call.
 */
function mockModel(script: AgentScript, workspace: () => string): MockOpenAiApi {
    return new MockOpenAiApi((request: OpenAiRequest) => {
        if (!request.tools.length) {
            return { text: 'Mock title' };
        }
        const result = MockOpenAiApi.lastToolResult(request.messages);
        if (result) {
            return { text: `Done (${result.name}).` };
        }
        const asked = MockOpenAiApi.lastUserText(request.messages);
        if (asked.includes('[WRITE]')) {
            return script.write(path.join(workspace(), `${script.mention.toLowerCase()}.txt`), `written by ${script.mention}\n`);
        }
        if (asked.includes('[EDIT]')) {
            return script.edit(path.join(workspace(), `${script.mention.toLowerCase()}-letters.txt`), 'beta', 'BETA');
        }
        return { text: script.hello };
    });
}

const OPENCODE: AgentScript = {
    mention: 'OpenCode', hello: 'Hello from the mock OpenCode.', writesThroughIde: true,
    write: (filePath, content) => ({ toolCall: { name: 'write', args: { filePath, content } } }),
    edit: (filePath, oldText, newText) => ({ toolCall: { name: 'edit', args: { filePath, oldString: oldText, newString: newText } } })
};
const COPILOT: AgentScript = {
    mention: 'Copilot', hello: 'Hello from the mock Copilot.', writesThroughIde: false,
    write: (filePath, content) => ({ toolCall: { name: 'create', args: { path: filePath, file_text: content } } }),
    edit: (filePath, oldText, newText) => ({ toolCall: { name: 'edit', args: { path: filePath, old_str: oldText, new_str: newText } } })
};

/**
 * OpenCode (`opencode acp`) and GitHub Copilot CLI (`copilot --acp`), each the real published client
 * offline against its own local mock of the OpenAI chat completions API, both in one window. Each
 * answers, and each write is asked for and reviewed in the diff editor before it is on disk: OpenCode
 * sends the whole file in its permission request and writes with `fs/write_text_file`; Copilot sends
 * the diff (a snippet, for an edit) in its `tool_call`, none in the permission request, and writes the
 * file itself.
 */
describe('ACP chat: OpenCode and GitHub Copilot CLI as chat agents', function (): void {
    this.timeout(300000);
    const models = new Map<AgentScript, MockOpenAiApi>([OPENCODE, COPILOT].map(script => [script, mockModel(script, () => bed.workspace)]));
    before(() => Promise.all([...models.values()].map(mock => mock.start())));
    after(() => Promise.all([...models.values()].map(mock => mock.stop())));
    const bed = AcpChatTestbed.install({ 'opencode-letters.txt': LETTERS, 'copilot-letters.txt': LETTERS }, sandbox => {
        prepareOpenCodeAcp(sandbox, models.get(OPENCODE)!.url);
        prepareCopilotAcp(sandbox, models.get(COPILOT)!.url);
    });

    beforeEach(() => bed.chat.newChat());

    const explain = async (error: Error, what: string): Promise<never> => {
        throw new Error(`${error.message}; ${await bed.window.describeForFailure(what)}; backend log:\n${bed.backend.log.slice(-3000)}`);
    };

    /**
     * Sends `prompt` to the agent and reviews the write it asks for: the question is in the chat, the
     * proposal (the whole file) in the diff editor, the file unchanged until ✓ accepts it; then the file
     * holds `expected` and the turn says what it changed.
     */
    const reviewAndAccept = async (script: AgentScript, prompt: string, file: string, expected: string) => {
        const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
        const what = `${script.mention.toLowerCase()}-${path.basename(file)}`;
        const response = await bed.chat.send(`@${script.mention} ${prompt}`, true);
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60000 }).catch(error => explain(error, `${what}-permission`));
        expect(await question.innerText()).to.contain(`${script.mention} asks to run`);
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 }).catch(error => explain(error, `${what}-diff`));
        await until(async () => await bed.window.diff.proposalText() === expected, 'the whole file proposed', 20000)
            .catch(async error => { throw new Error(`${error.message}: ${JSON.stringify(await bed.window.diff.proposalText())}`); });
        expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined, 'nothing written before the user decides').to.equal(before);
        await bed.window.page.locator(ACCEPT).first().click();
        await until(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8') === expected, `${path.basename(file)} written`, 60000)
            .catch(error => { throw new Error(`${error.message}: ${JSON.stringify(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined)}`); });
        await bed.chat.finished(response).catch(error => explain(error, `${what}-finished`));
        const text = await bed.chat.text(response);
        expect(text).to.contain(`Changed in this turn: ${path.basename(file)}.`);
        return text;
    };

    /** The agent asked its model API for chat completions only (an unknown path would be answered 404). */
    const expectOnlyChatCompletions = (script: AgentScript) =>
        expect(models.get(script)!.requests.filter(request => request.unknown).map(request => `${request.method} ${request.path}`)).to.deep.equal([]);

    for (const script of [OPENCODE, COPILOT]) {
        it(`${script.mention} answers`, async () => {
            const response = await bed.chat.send(`@${script.mention} Say hello`, true);
            await bed.chat.finished(response).catch(error => explain(error, `${script.mention}-hello`));
            expect(await bed.chat.text(response)).to.contain(script.hello);
            expect(await response.getAttribute('aria-label')).to.contain(script.mention);
            expect(models.get(script)!.conversationRequests.some(request => MockOpenAiApi.lastUserText(request.messages).includes('Say hello'))).to.equal(true);
            expectOnlyChatCompletions(script);
        });

        if (script === OPENCODE) {
            // `opencode acp` also serves its HTTP API on loopback: without the password the backend gives each launch,
            // any local account could read its configuration (the API key below) or drive its sessions.
            it('OpenCode\'s own HTTP server answers no one without the password of its launch', async () => {
                await bed.chat.finished(await bed.chat.send('@OpenCode Say hello', true));
                const opencode = descendantsOf(bed.backend.pid)
                    .filter(pid => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some(word => path.basename(word) === 'opencode'));
                const ports = opencode.flatMap(pid => listeningPorts(pid));
                expect(ports, 'OpenCode serves its API').to.not.be.empty;
                for (const port of ports) {
                    const response = await fetch(`http://127.0.0.1:${port}/config/providers`);
                    const body = await response.text();
                    expect(response.status, `port ${port}: ${body.slice(0, 200)}`).to.equal(401);
                    expect(body).to.not.contain(FAKE_OPENCODE_API_KEY);
                }
            });
        }

        it(`${script.mention} creates a file only after the user accepts it in the diff review`, async () => {
            const file = path.join(bed.workspace, `${script.mention.toLowerCase()}.txt`);
            const logBefore = bed.backend.log.length;
            const text = await reviewAndAccept(script, 'Write it [WRITE]', file, `written by ${script.mention}\n`);
            expect(text).to.match(/Done \((write|create)\)\./);
            // OpenCode's write goes through the IDE (the backend logs it), Copilot writes the file itself.
            expect(/the agent wrote \S*\.txt/.test(bed.backend.log.slice(logBefore)), 'written with fs/write_text_file').to.equal(script.writesThroughIde);
            expectOnlyChatCompletions(script);
        });

        it(`${script.mention} edits an existing file after review: the change is shown as the whole file`, async () => {
            const file = path.join(bed.workspace, `${script.mention.toLowerCase()}-letters.txt`);
            const text = await reviewAndAccept(script, 'Shout the second letter [EDIT]', file, 'alpha\nBETA\ngamma\n');
            expect(text).to.contain('Done (edit).');
            expectOnlyChatCompletions(script);
        });
    }
});
