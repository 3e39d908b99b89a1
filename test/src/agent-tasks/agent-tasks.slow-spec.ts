import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Locator } from 'playwright-core';
import { waitForWorkbench } from '../hosts/browser';
import { prepareGeminiAcp } from '../clis/gemini-acp-setup';
import { MockGeminiApi, MockTurn } from '../mocks/mock-gemini-api';
import { until } from '../support/processes';
import { Sandbox, createSandbox, createWorkspace } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

const PARSER = 'export function parse(text: string): string[] {\n    return text.split(\',\');\n}\n';
const DOCUMENTED = '/** Splits a comma-separated line. */\nexport function parse(text: string): string[] {\n    return text.split(\',\');\n}\n';

/**
 * Agent tasks end to end: the real `gemini` 0.61.0, headless with stream-json, started from the
 * command palette of a real Theia in Chromium, offline against the mock Gemini API.
 */
describe('Agent tasks: Run Gemini Task…, the Agent Tasks view, review and revert', function (): void {
    this.timeout(180_000);
    let sandbox: Sandbox;
    let workspace: string;
    let backend: TheiaBackend;
    let window: TheiaWindow;
    let api: MockGeminiApi;
    let script: (contents: Parameters<ConstructorParameters<typeof MockGeminiApi>[0]>[0]) => MockTurn;

    before(async () => {
        api = new MockGeminiApi(contents => script(contents));
        sandbox = createSandbox();
        workspace = createWorkspace(sandbox, 'project', { 'src/parser.ts': PARSER, 'README.md': '# Project\n' });
        prepareGeminiAcp(sandbox, await api.start(), 'test-key');
        backend = new TheiaBackend(sandbox, workspace);
        await backend.start();
        window = await TheiaWindow.open(sandbox, backend.url);
    });

    after(async () => {
        await window?.close();
        await backend?.stop();
        await api?.stop();
        sandbox?.dispose();
    });

    const taskCard = (index = 0): Locator => window.page.locator('.agent-tasks .agent-task').nth(index);

    async function quickInputValue(): Promise<string> {
        const input = window.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        return input.inputValue();
    }

    /** Run Gemini Task… from README.md's context menu, the file as context; one folder means no folder question. */
    async function runFromEditorMenu(prompt: string): Promise<void> {
        await window.openFile('README.md');
        await window.page.locator('#theia-main-content-panel .monaco-editor .view-lines').first().click({ button: 'right' });
        await window.page.locator('.lm-Menu-item', { hasText: 'Run Gemini Task…' }).click();
        await until(async () => await quickInputValue() === '@README.md ', 'the prompt prefilled with the file');
        await window.page.keyboard.type(prompt);
        await window.page.keyboard.press('Enter');
    }

    it('runs a task on the selection, shows it live, lists its change with a diff, and reverts it', async () => {
        const parserFile = path.join(workspace, 'src', 'parser.ts');
        let finalAnswerAsked = false;
        let release: () => void = () => undefined;
        const released = new Promise<void>(resolve => release = resolve);
        script = contents => {
            if (!MockGeminiApi.lastToolResult(contents)) {
                return { functionCall: { name: 'write_file', args: { file_path: parserFile, content: DOCUMENTED } } };
            }
            finalAnswerAsked = true;
            // The model "thinks" after the edit until the test has seen the task live in the view.
            return { text: 'I added a doc comment to parse().', after: released };
        };
        await window.openFile('src/parser.ts');
        await window.goTo(1, 1);
        await window.page.keyboard.press('Shift+ArrowDown');
        await window.page.keyboard.press('Shift+ArrowDown');

        // F1 straight from the editor: clicking elsewhere first would drop the selection. Keys typed
        // before the palette has the focus would replace the selected lines.
        const palette = await window.openCommandPalette('Run Gemini Task');
        await window.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Run Gemini Task' }).first().waitFor();
        await palette.press('Enter');
        await until(async () => await quickInputValue() !== '>Run Gemini Task', 'the prompt input');
        expect(await quickInputValue()).to.equal('In @src/parser.ts, lines 1-2: ');
        await window.page.keyboard.type('add a doc comment');
        await window.page.keyboard.press('Enter');
        // The folder: the workspace root (offered first, as the file is in it) or the file's own folder.
        await window.page.locator('.quick-input-list .monaco-list-row', { hasText: 'src' }).first().waitFor();
        await window.pickQuickItem('project');
        await window.pickQuickItem('Edit files (auto_edit)');

        const card = taskCard();
        await card.waitFor({ timeout: 20000 });
        // Live: the tool call has finished and the file is written while the task still runs.
        await until(async () => finalAnswerAsked && await card.locator('.agent-task-tool[data-tool-name="write_file"][data-status="success"]').count() === 1,
            // Gemini CLI's cold start and two model turns: generous for a loaded machine.
            'the write_file call shown as done', 60000).catch(async error => {
            throw new Error(`${error.message} (final answer asked: ${finalAnswerAsked}); card: ${JSON.stringify(await card.innerText().catch(() => ''))}; `
                + `${parserFile}: ${JSON.stringify(fs.readFileSync(parserFile, 'utf8'))}; ${await window.describeForFailure('agent-task-live')}; `
                + `model requests: ${api.requests.length}; backend log:\n${backend.log.split('\n').filter(line => /task/i.test(line)).slice(-20).join('\n')}`);
        });
        expect(await card.getAttribute('data-state')).to.equal('running');
        expect(await card.locator('[data-action="cancel"]').count()).to.equal(1);
        expect(fs.readFileSync(parserFile, 'utf8')).to.equal(DOCUMENTED);
        release();

        await until(async () => await card.getAttribute('data-state') === 'succeeded', 'the task to succeed', 30000);
        expect(await card.locator('.agent-task-assistant').innerText()).to.equal('I added a doc comment to parse().');
        expect(await card.locator('.agent-task-prompt').innerText()).to.equal('In @src/parser.ts, lines 1-2: add a doc comment');
        const total = card.locator('.agent-task-stats-total');
        expect(await total.locator('[data-stat="input_tokens"]').innerText()).to.equal('22');
        expect(await total.locator('[data-stat="output_tokens"]').innerText()).to.equal('14');
        expect(await total.locator('[data-stat="cached"]').innerText()).to.equal('0');
        expect(await total.locator('[data-stat="total_tokens"]').innerText()).to.equal('36');
        expect(await card.locator('.agent-task-stats-model[data-model="gemini-2.5-flash"]').innerText()).to.equal('gemini-2.5-flash: 22 in · 14 out · 0 cached · 36 total');
        expect(await card.locator('.agent-task-stats-line').innerText()).to.match(/^1 tool call · \d+\.\d s$/);
        expect(await card.locator('.agent-task-tool-brief').innerText()).to.equal('src/parser.ts');
        // Gemini CLI read the file itself for the @-reference; the model got its text and the line range.
        const firstRequest = JSON.stringify(api.requests.find(request => request.path.includes('streamGenerateContent'))!.contents);
        expect(firstRequest).to.contain('lines 1-2: add a doc comment').and.contain('text.split');

        const change = card.locator('.agent-task-change[data-path="src/parser.ts"]');
        expect(await change.getAttribute('data-kind')).to.equal('modified');
        await change.locator('[data-action="open-diff"]').click();
        const diff = window.page.locator('#theia-main-content-panel .monaco-diff-editor');
        await diff.locator('.editor.modified .line-insert, .editor.modified .char-insert').first().waitFor({ state: 'attached', timeout: 20000 });
        const sideText = async (side: string) => (await diff.locator(`.editor.${side} .view-lines`).innerText()).replace(/\u00a0/g, ' ');
        expect(await sideText('original')).not.to.contain('Splits');
        expect(await sideText('modified')).to.contain('Splits a comma-separated line.');
        await window.saveDocScreenshot('agent-tasks');

        // The task's diff is a review diff: Reject Change at the cursor puts the lines from before the task
        // back into the file (an ordinary edit, which Theia's default auto-save writes).
        await diff.locator('.editor.modified .view-lines').click();
        await window.goTo(1, 1);
        await window.runCommand('CLI Companion: Reject Change', { keepFocus: true });
        await until(() => fs.readFileSync(parserFile, 'utf8') === PARSER, 'the rejected change saved', 20000)
            .catch(error => { throw new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(parserFile, 'utf8'))}`); });

        // The user edited the file after the task: the revert asks first; Cancel keeps the user's text.
        const edited = `${DOCUMENTED}// the user kept typing\n`;
        fs.writeFileSync(parserFile, edited);
        const dialog = window.page.locator('.dialogBlock');
        await change.locator('[data-action="revert"]').click();
        await dialog.waitFor({ state: 'visible', timeout: 10000 });
        expect(await dialog.innerText()).to.contain('src/parser.ts changed after the task ended');
        await dialog.locator('button', { hasText: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached', timeout: 10000 });
        expect(fs.readFileSync(parserFile, 'utf8')).to.equal(edited);
        expect(await change.getAttribute('data-reverted')).to.not.equal('true');

        await change.locator('[data-action="revert"]').click();
        await dialog.waitFor({ state: 'visible', timeout: 10000 });
        await dialog.locator('button', { hasText: 'Revert Anyway' }).click();
        await until(async () => await change.getAttribute('data-reverted') === 'true', 'the change shown as reverted', 20000);
        expect(fs.readFileSync(parserFile, 'utf8')).to.equal(PARSER);

        // Finished tasks stay listed for the workspace across a reload.
        await window.page.reload();
        await waitForWorkbench(window.page);
        await window.runCommand('Show Agent Tasks');
        await until(async () => await taskCard().getAttribute('data-state').catch(() => null) === 'succeeded', 'the task listed after the reload', 30000);
        expect(await taskCard().locator('.agent-task-change[data-path="src/parser.ts"]').getAttribute('data-reverted')).to.equal('true');
        // Its transcript is fetched when the card is opened.
        expect(await taskCard().locator('.agent-task-assistant').count()).to.equal(0);
        await taskCard().locator('.agent-task-header').click();
        await until(async () => (await taskCard().locator('.agent-task-assistant').allInnerTexts()).join('') === 'I added a doc comment to parse().',
            'the stored transcript', 20000);
        expect(await taskCard().locator('.agent-task-tool[data-tool-name="write_file"][data-status="success"]').count()).to.equal(1);
    });

    it('offers to trust the folder when Gemini CLI refuses an untrusted one, and the rerun works', async () => {
        const settingsFile = path.join(sandbox.home, '.gemini', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, security: { ...settings.security, folderTrust: { enabled: true } } }));
        script = () => ({ text: 'The README says: Project.' });
        try {
            await runFromEditorMenu('summarise it');
            await window.pickQuickItem('Read only (default)');
            const refused = window.page.locator('.agent-tasks .agent-task[data-state="untrusted-folder"]').first();
            await refused.waitFor({ timeout: 30000 });
            expect(await refused.locator('.agent-task-outcome').innerText()).to.contain('does not trust this folder');
            await refused.locator('[data-action="run-trusted"]').click();
            await until(async () => await taskCard().getAttribute('data-state') === 'succeeded', 'the rerun trusting the folder to succeed', 30000);
            expect(await taskCard().locator('.agent-task-assistant').innerText()).to.equal('The README says: Project.');
            expect(await taskCard().locator('.agent-task-prompt').innerText()).to.equal('@README.md summarise it');
            expect(await taskCard().locator('.agent-task-changes-title').innerText()).to.equal('No files changed.');
        } finally {
            fs.writeFileSync(settingsFile, JSON.stringify(settings));
        }
    });

    it('lists a finished task\'s changes in Pending Changes until each is kept or reverted, and remembers the decisions', async () => {
        const parserFile = path.join(workspace, 'src', 'parser.ts');
        const todo = path.join(workspace, 'notes', 'todo.md');
        const done = path.join(workspace, 'notes', 'done.md');
        const writes = [{ file_path: parserFile, content: DOCUMENTED }, { file_path: todo, content: '- [ ] review\n' }, { file_path: done, content: '- [x] write\n' }];
        script = contents => {
            const written = contents.filter(content => content.parts.some(part => part.functionResponse?.name === 'write_file')).length;
            return written < writes.length ? { functionCall: { name: 'write_file', args: writes[written] } } : { text: 'Three files written.' };
        };
        await runFromEditorMenu('write the notes');
        await window.pickQuickItem('Edit files (auto_edit)');
        await until(async () => await taskCard().getAttribute('data-state') === 'succeeded', 'the task to succeed', 60000);

        await window.runCommand('CLI Companion: Show Pending Changes');
        const group = window.page.locator('.pending-review-group', { hasText: 'Task: @README.md write the notes' });
        await until(async () => await group.locator('[data-written]').count() === 3, 'the task\'s three files listed', 20000);
        const listed = await group.locator('[data-written]').evaluateAll(rows => rows.map(row => row.getAttribute('data-file')));
        expect(listed.sort()).to.deep.equal(['done.md', 'parser.ts', 'todo.md']);
        const parserRow = group.locator('[data-written][data-file="parser.ts"]');
        await parserRow.locator('[data-action="open"]').click();
        await until(async () => await parserRow.locator('.pending-review-file-progress').innerText() === '1 of 1 changes to decide', 'the open diff\'s changes counted', 20000);

        await parserRow.locator('[data-action="keep"]').click();
        await until(async () => await group.locator('[data-written]').count() === 2, 'the kept file to leave the list', 10000);
        expect(fs.readFileSync(parserFile, 'utf8'), 'Keep leaves the file alone').to.equal(DOCUMENTED);
        expect(await taskCard().locator('.agent-task-change[data-path="src/parser.ts"]').getAttribute('data-kept')).to.equal('true');

        await group.locator('[data-action="revert-group"]').click();
        const dialog = window.page.locator('.dialogBlock');
        await dialog.waitFor({ state: 'visible', timeout: 10000 });
        expect(await dialog.innerText()).to.contain('notes/todo.md').and.contain('notes/done.md').and.not.contain('parser.ts');
        await dialog.locator('button', { hasText: 'Revert All' }).click();
        await until(() => !fs.existsSync(todo) && !fs.existsSync(done), 'the added files removed', 20000);
        await group.waitFor({ state: 'detached', timeout: 10000 });
        expect(fs.readFileSync(parserFile, 'utf8')).to.equal(DOCUMENTED);

        await window.page.reload();
        await waitForWorkbench(window.page);
        await window.runCommand('Show Agent Tasks');
        await until(async () => await taskCard().locator('.agent-task-change[data-path="src/parser.ts"]').getAttribute('data-kept').catch(() => null) === 'true',
            'the kept change remembered after the reload', 30000);
        await window.runCommand('CLI Companion: Show Pending Changes');
        await window.page.locator('.pending-review-empty').waitFor({ state: 'visible', timeout: 10000 });
    });
});
