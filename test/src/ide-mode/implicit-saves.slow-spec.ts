import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { ClaudeCodeTestbed } from '../support/claude-code-testbed';
import { prepareGeminiAcp } from '../clis/gemini-acp-setup';
import { IdeProbe } from '../hosts/ide-probe';
import { closeLeftoverDiffs, CONTROL_FILE, editThroughImplicitSave, IMPLICIT_SAVES, ORIGINAL, PROPOSED, REVIEWED, settledInBackend } from '../support/implicit-saves';
import { AnthropicRequest, MockAnthropicApi, MockAnthropicTurn } from '../mocks/mock-anthropic-api';
import { MockGeminiApi } from '../mocks/mock-gemini-api';
import { until } from '../support/processes';
import { GeminiWindowTestbed } from '../support/gemini-window-testbed';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';

/**
 * Only the user's explicit decision settles a proposal. For every way Theia saves by itself
 * (auto-save after its default delay and after 100 ms, on focus change, on window change) and for
 * Save All (also with every save participant on), the user edits a proposal (reverts a change
 * from the gutter, types into it), moves the focus to a terminal, and the real client still waits
 * 5 s later; Ctrl+S in the review then accepts exactly the edited text. One window goes through
 * every mode, switching settings live.
 */
describe('Implicit saves never settle a proposal: the real Gemini IdeClient', function (): void {
    this.timeout(300_000);
    const bed = GeminiWindowTestbed.install({ [CONTROL_FILE]: 'control\n' }, { windowPer: 'block' });

    afterEach(() => closeLeftoverDiffs(bed.window));

    IMPLICIT_SAVES.forEach((save, round) => it(`${save.name}: no ide/diffAccepted; Ctrl+S then accepts the edited text`, async () => {
        await bed.window.changeSettings(bed.sandbox, save.settings);
        const file = path.join(bed.workspace, `round-${round}.txt`);
        fs.writeFileSync(file, ORIGINAL);
        bed.probe.openDiff(file, PROPOSED);
        await editThroughImplicitSave(bed.window, bed.workspace, save, () => {
            const report = bed.probe.peekDiffOutcome('diff', file);
            return (report && `the client got ${JSON.stringify(report)}`) || settledInBackend(bed.backend.log, file);
        });
        expect((await bed.probe.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: REVIEWED });
    }));

    it('the same for Qwen Code\'s IdeClient, under the default auto-save', async () => {
        await bed.window.changeSettings(bed.sandbox, IMPLICIT_SAVES[0].settings);
        const qwen = new IdeProbe('qwen', await bed.window.terminalEnvironment(bed.workspace), bed.workspace);
        try {
            expect((await qwen.connected()).status.status).to.equal('connected');
            const file = path.join(bed.workspace, 'qwen.txt');
            fs.writeFileSync(file, ORIGINAL);
            qwen.openDiff(file, PROPOSED);
            await editThroughImplicitSave(bed.window, bed.workspace, IMPLICIT_SAVES[0], () => {
                const report = qwen.peekDiffOutcome('diff', file);
                return (report && `the client got ${JSON.stringify(report)}`) || settledInBackend(bed.backend.log, file);
            });
            expect((await qwen.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: REVIEWED });
        } finally {
            await qwen.close();
        }
    });
});

describe('Implicit saves never settle a proposal: the real claude binary\'s blocking openDiff', function (): void {
    this.timeout(300_000);
    const bed = ClaudeCodeTestbed.install({ [CONTROL_FILE]: 'control\n' });

    /** "Edit round-N.txt": the model reads the file, then edits it (two changes), then says it is done. */
    function turn(request: AnthropicRequest): MockAnthropicTurn {
        const name = /Edit (round-\d+\.txt)/.exec(MockAnthropicApi.lastUserText(request))?.[1];
        if (!name) {
            return { text: 'OK.' };
        }
        const file = path.join(bed.workspace, name);
        const result = MockAnthropicApi.lastToolResult(request);
        if (!result) {
            return { toolUse: { name: 'Read', input: { file_path: file } } };
        }
        if (result.name === 'Read') {
            return { toolUse: { name: 'Edit', input: { file_path: file, old_string: ORIGINAL.trimEnd(), new_string: PROPOSED.trimEnd() } } };
        }
        return { text: `Finished ${name}.` };
    }

    before(async () => {
        bed.script = turn;
        await bed.window.waitForStatus(/CLI 1$/, 90_000).catch(error => { throw bed.explain(error); });
    });
    afterEach(() => closeLeftoverDiffs(bed.window));

    IMPLICIT_SAVES.forEach((save, round) => it(`${save.name}: openDiff gets no answer; Ctrl+S then has claude write the edited text`, async () => {
        const { window, terminal, api, backend } = bed;
        await window.changeSettings(bed.sandbox, save.settings);
        const name = `round-${round}.txt`;
        const file = path.join(bed.workspace, name);
        fs.writeFileSync(file, ORIGINAL);
        await terminal.submit(`Edit ${name}`);
        await window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60_000 });
        await terminal.waitFor(new RegExp(`Do you want to make this edit to ${name.replace('.', '\\.')}`), 'the permission prompt in the terminal', 20_000);
        const asked = api.conversationRequests.length;
        await editThroughImplicitSave(window, bed.workspace, save, () =>
            (fs.readFileSync(file, 'utf8') !== ORIGINAL && `${name} was written`)
            || (api.conversationRequests.length > asked && 'Claude Code went on with the conversation (its openDiff was answered)')
            || (!/Do you want to make this edit/.test(terminal.screen()) && 'the terminal no longer asks')
            || settledInBackend(backend.log, file));
        await until(() => fs.readFileSync(file, 'utf8') === REVIEWED, 'Claude Code to write the reviewed text', 60_000, 250)
            .catch(error => { throw new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(file, 'utf8'))}\n${terminal.screen()}`); });
        await terminal.waitFor(new RegExp(`Finished ${name.replace('.', '\\.')}`), 'the model\'s answer after the edit', 30_000);
    }));
});

describe('Implicit saves never settle a proposal: an ACP permission diff of the real gemini --acp', function (): void {
    this.timeout(300_000);
    const mock = new MockGeminiApi(contents => {
        if (MockGeminiApi.lastToolResult(contents)) {
            return { text: 'The file is written.' };
        }
        const edit = /\[EDIT:([^\]]+)\]/.exec(MockGeminiApi.lastUserText(contents));
        return edit ? { functionCall: { name: 'write_file', args: { file_path: edit[1], content: PROPOSED } } } : { text: 'OK.' };
    });
    before(() => mock.start());
    after(() => mock.stop());
    const bed = AcpChatTestbed.install({ [CONTROL_FILE]: 'control\n' }, sandbox => prepareGeminiAcp(sandbox, mock.url, 'fake-offline-key'));
    before(() => bed.window.openTerminal());
    beforeEach(() => bed.chat.newChat());
    afterEach(() => closeLeftoverDiffs(bed.window));

    IMPLICIT_SAVES.forEach((save, round) => it(`${save.name}: the permission stays unanswered; Ctrl+S then allows the edited text`, async () => {
        await bed.window.changeSettings(bed.sandbox, save.settings);
        const file = path.join(bed.workspace, `round-${round}.txt`);
        fs.writeFileSync(file, ORIGINAL);
        const response = await bed.chat.send(`Change it [EDIT:${file}]`);
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60_000 });
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20_000 });
        const asked = mock.requests.length;
        await editThroughImplicitSave(bed.window, bed.workspace, save, async () =>
            (fs.readFileSync(file, 'utf8') !== ORIGINAL && 'the file was written')
            || (await question.locator('button.theia-QuestionPartRenderer-option.selected').count() > 0 && 'the permission question was answered')
            || (mock.requests.length > asked && 'gemini went on with the conversation'));
        await until(() => fs.readFileSync(file, 'utf8') === REVIEWED, 'the agent\'s write to carry the reviewed text', 30_000)
            .catch(error => { throw new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(file, 'utf8'))}`); });
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('as you reviewed it');
    }));
});
