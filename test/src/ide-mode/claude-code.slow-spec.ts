import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { ClaudeCodeTestbed } from '../support/claude-code-testbed';
import { IdeProbe } from '../hosts/ide-probe';
import { MockAnthropicApi } from '../mocks/mock-anthropic-api';
import { until } from '../support/processes';

const ORIGINAL = 'line one\nline two\nline three\n';
const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';

/**
 * The real `claude` 2.1.332 in a pty with the environment of a real Theia terminal, offline against
 * a local mock of the Anthropic Messages API: it connects to the window over the WebSocket contract,
 * the browser's selection reaches the model, its Edit is reviewed in the browser's Monaco diff.
 */
describe('Claude Code: the real claude binary connected to a Theia window', function (): void {
    this.timeout(300_000);
    const bed = ClaudeCodeTestbed.install({ 'hello.txt': ORIGINAL, 'gemini.txt': 'for gemini\n', 'qwen.txt': 'for qwen\n' });

    before(() => {
        expect(bed.terminalEnv.CLAUDE_CODE_SSE_PORT, 'the terminal points claude at this window').to.match(/^\d+$/);
        expect(JSON.parse(fs.readFileSync(bed.lockFile, 'utf8'))).to.deep.include({ workspaceFolders: [bed.workspace], ideName: 'Eclipse Theia', transport: 'ws' });
    });

    const file = () => path.join(bed.workspace, 'hello.txt');
    const failWith = async (error: Error) => {
        throw bed.explain(error);
    };

    it('connects by itself (ide_connected), and the window lists the Claude Code session', async () => {
        await bed.window.waitForStatus(/CLI 1$/, 90_000).catch(failWith);
        await until(() => /ide_connected/.test(bed.backend.log), 'ide_connected in the log', 30_000);
        await bed.window.runCommand('CLI Companion: Show Status');
        const row = bed.window.page.locator('.ai-cli-companion-session').first();
        await row.waitFor({ timeout: 20_000 });
        expect(await row.innerText()).to.match(/^Claude Code\s+claude-code 2\.1\.332/);
        await bed.window.closeEditor('CLI Companion');
    });

    it('sends the browser\'s selection to the model; an Edit opens the Monaco diff, the user edits and accepts, the file holds that text', async () => {
        bed.script = request => MockAnthropicApi.lastToolResult(request)
            ? { text: 'The line is added.' }
            : { toolUse: { name: 'Edit', input: { file_path: file(), old_string: 'line two\n', new_string: 'line two\nadded line\n' } } };
        await bed.window.openFile('hello.txt');
        await bed.window.goTo(2, 1);
        // Select lines 2-3; Claude Code may miss a selection sent while it starts, so move it until it shows.
        await until(async () => {
            await bed.window.page.keyboard.press('Shift+ArrowUp');
            await bed.window.page.keyboard.press('Shift+ArrowDown');
            await bed.window.page.keyboard.press('Shift+ArrowDown');
            await bed.window.page.keyboard.press('Shift+ArrowDown');
            await new Promise(resolve => setTimeout(resolve, 1500));
            return /2 lines selected|Selected 2 lines from hello\.txt/.test(bed.terminal.screen());
        }, 'Claude Code to show the selection', 60_000, 0).catch(failWith);

        await bed.terminal.submit('Add a line after line two');
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60_000 }).catch(failWith);
        const request = bed.api.conversationRequests.find(candidate => MockAnthropicApi.lastUserText(candidate).includes('Add a line after line two'))!;
        expect(MockAnthropicApi.selections(request)).to.deep.include({ file: file(), startLine: 2, endLine: 3, text: 'line two\nline three\n' });
        await bed.terminal.waitFor(/Do you want to make this edit to hello\.txt/, 'the permission prompt in the terminal', 20_000);
        await bed.window.saveDocScreenshot('claude-code-diff');

        await bed.window.diff.appendLineToProposal('edited in Theia');
        await bed.window.page.keyboard.press('Control+s');
        await until(() => fs.readFileSync(file(), 'utf8') === 'line one\nline two\nadded line\nline three\nedited in Theia\n',
            'Claude Code to write the accepted text', 60_000, 250)
            .catch(failWith);
        await bed.terminal.waitFor(/The line is added\./, 'the model\'s answer after the edit', 30_000);
        await until(async () => await bed.window.page.locator(DIFF_EDITOR).count() === 0, 'the diff closed', 20_000);
    });

    it('a second Edit rejected in the browser writes nothing, and Claude Code says so', async () => {
        const before = fs.readFileSync(file(), 'utf8');
        bed.script = request => MockAnthropicApi.lastToolResult(request)
            ? { text: 'Understood.' }
            : { toolUse: { name: 'Edit', input: { file_path: file(), old_string: 'line one', new_string: 'LINE ONE' } } };
        await bed.terminal.submit('Capitalise line one');
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60_000 }).catch(failWith);
        await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-close').first().click();
        await bed.terminal.waitFor(/Rejected update to hello\.txt/, 'Claude Code to report the rejection', 30_000);
        expect(fs.readFileSync(file(), 'utf8')).to.equal(before);
    });

    it('an Edit of three changes with the second rejected (Reject Change): the blocking openDiff answers, the file holds the reviewed text', async () => {
        const before = fs.readFileSync(file(), 'utf8');
        const lines = before.split('\n');
        expect(lines.length, `five lines and a final newline in ${JSON.stringify(before)}`).to.equal(6);
        const proposed = lines.map((line, index) => index % 2 === 0 ? line.toUpperCase() : line).join('\n');
        const reviewed = lines.map((line, index) => index === 0 || index === 4 ? line.toUpperCase() : line).join('\n');
        bed.script = request => MockAnthropicApi.lastToolResult(request)
            ? { text: 'Three lines changed.' }
            : { toolUse: { name: 'Edit', input: { file_path: file(), old_string: before, new_string: proposed } } };
        await bed.terminal.submit('Capitalise every other line');
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60_000 }).catch(failWith);
        await until(async () => await bed.window.page.locator(`${DIFF_EDITOR} .editor.modified .line-insert`).count() >= 3, 'the diff of three changes', 20_000);
        await bed.window.diff.focusProposal();
        await bed.window.goTo(3, 1);
        await bed.window.page.keyboard.press('Control+Shift+Backspace');
        await until(async () => (await bed.window.diff.proposalText()).includes(`\n${lines[2]}\n`), 'the second change to be reverted', 10_000);
        await bed.window.page.keyboard.press('Control+s');
        await until(() => fs.readFileSync(file(), 'utf8') === reviewed, 'Claude Code to write the reviewed text', 60_000, 250)
            .catch(error => failWith(new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(file(), 'utf8'))}`)));
        await bed.terminal.waitFor(/Three lines changed\./, 'the model\'s answer after the edit', 30_000);
    });

    it('three sessions at once (Claude Code, Gemini CLI, Qwen Code): Pending Changes lists each; Accept All Diffs answers each once, to its own', async () => {
        const gemini = new IdeProbe('gemini', bed.terminalEnv, bed.workspace);
        const qwen = new IdeProbe('qwen', bed.terminalEnv, bed.workspace);
        try {
            expect((await gemini.connected()).status.status).to.equal('connected');
            expect((await qwen.connected()).status.status).to.equal('connected');
            const before = fs.readFileSync(file(), 'utf8');
            bed.script = request => MockAnthropicApi.lastToolResult(request)
                ? { text: 'Claude is done.' }
                : { toolUse: { name: 'Edit', input: { file_path: file(), old_string: before, new_string: `${before}from claude\n` } } };
            await bed.terminal.submit('Add a line for Claude');
            await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60_000 }).catch(failWith);
            const geminiFile = path.join(bed.workspace, 'gemini.txt');
            const qwenFile = path.join(bed.workspace, 'qwen.txt');
            gemini.openDiff(geminiFile, 'for gemini\nfrom gemini\n');
            qwen.openDiff(qwenFile, 'for qwen\nfrom qwen\n');
            await until(async () => await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: '↔' }).count() === 3, 'three diffs', 30_000);
            await bed.window.runCommand('CLI Companion: Show Pending Changes');
            const view = bed.window.page.locator('.pending-review');
            await until(async () => await view.locator('.pending-review-group').count() === 3, 'three groups in Pending Changes', 20_000);
            const labels = await view.locator('.pending-review-group-label').allInnerTexts();
            expect(labels.map(label => label.split(' (')[0]).sort()).to.deep.equal(['Claude Code', 'Gemini CLI', 'Qwen Code']);
            // Qwen's diff has reported its changes ("1 of 1 changes to decide"): in the side bar's width
            // every row still shows its file's name and its actions, inside the view.
            await view.locator('.pending-review-file-progress').first().waitFor({ state: 'visible', timeout: 20_000 });
            const viewBox = (await view.boundingBox())!;
            for (const part of await view.locator('[data-proposal] .pending-review-file-name, [data-proposal] [data-action]').all()) {
                const box = await part.boundingBox();
                expect(box && box.width > 8 && box.x >= viewBox.x && box.x + box.width <= viewBox.x + viewBox.width + 0.5,
                    `${await part.evaluate(node => node.outerHTML.slice(0, 200))} shown inside the view (${JSON.stringify(box)} in ${JSON.stringify(viewBox)})`).to.equal(true);
            }
            await bed.window.runCommand('Toggle Bottom Panel');
            await bed.window.page.locator('#theia-bottom-content-panel').waitFor({ state: 'hidden', timeout: 10_000 });
            await bed.window.saveDocScreenshot('review-view', bed.window.page.locator('#theia-app-shell'));

            await bed.window.runCommand('CLI Companion: Accept All Diffs');
            expect((await gemini.diffOutcome('diff', geminiFile)).result).to.deep.equal({ status: 'accepted', content: 'for gemini\nfrom gemini\n' });
            expect((await qwen.diffOutcome('diff', qwenFile)).result).to.deep.equal({ status: 'accepted', content: 'for qwen\nfrom qwen\n' });
            await until(() => fs.readFileSync(file(), 'utf8') === `${before}from claude\n`, 'Claude Code to write its accepted edit', 60_000, 250).catch(failWith);
            await bed.terminal.waitFor(/Claude is done\./, 'the model\'s answer after the edit', 30_000);
            await until(async () => await view.locator('[data-proposal]').count() === 0, 'Pending Changes to empty', 10_000);
            expect(gemini.peekDiffOutcome('diff', geminiFile), 'Gemini is answered once').to.equal(undefined);
            expect(qwen.peekDiffOutcome('diff', qwenFile), 'Qwen is answered once').to.equal(undefined);
        } finally {
            await gemini.close();
            await qwen.close();
        }
    });

    it('"Send Selection to Claude Code" from the editor\'s context menu puts the file and lines into Claude\'s prompt, from the explorer the file', async () => {
        await bed.window.openFile('hello.txt');
        // (Theia's Ln/Col item stops updating once a diff has closed over the editor: no goTo here.)
        await bed.window.page.keyboard.press('Control+Home');
        await bed.window.page.keyboard.press('Shift+ArrowDown');
        await bed.window.page.keyboard.press('Shift+ArrowDown');
        await bed.window.page.locator('#theia-main-content-panel .monaco-editor .view-lines').first().click({ button: 'right', position: { x: 20, y: 5 } });
        await bed.window.page.locator('.lm-Menu-item', { hasText: 'Send Selection to Claude Code' }).click();
        await bed.terminal.waitFor(/@\S*hello\.txt#L1-2/, 'the mention in Claude\'s prompt', 20_000);

        // From the file explorer: the whole file.
        const node = bed.window.page.locator('.theia-FileTree .theia-TreeNode', { hasText: 'hello.txt' }).first();
        if (!await node.isVisible()) {
            await bed.window.page.locator('#shell-tab-explorer-view-container').click();
        }
        await node.waitFor({ timeout: 20_000 });
        await node.click({ button: 'right' });
        await bed.window.page.locator('.lm-Menu-item', { hasText: 'Send Selection to Claude Code' }).click();
        await bed.terminal.waitFor(/hello\.txt#L1-2\s+@\S*hello\.txt(?!#)/, 'the file mention after the line mention', 20_000);
    });
});
