import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { until } from '../support/processes';
import { ReceivedTraffic } from '../mocks/received-traffic';
import { DIFF_SCENARIO_FILES, DIFF_SCENARIOS } from '../scenarios/diff-scenarios';
import { GeminiWindowTestbed } from '../support/gemini-window-testbed';
import { geminiDiscoveryDirectory, updateTheiaSettings } from '../support/sandbox';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';

/** CLI edits open as editable Monaco diffs in the right window; the real IdeClient gets the outcome. */
describe('Diff review: the real Gemini IdeClient proposes, the user decides in Monaco', function (): void {
    this.timeout(300000);
    /** What the window's page received from the network since before it loaded. */
    let traffic: ReceivedTraffic;
    const bed = GeminiWindowTestbed.install({
        'src/app.ts': 'line 1\nline 2\n', 'notes.md': '# Notes\n', 'config.txt': 'a=1\n', 'settings.ini': 'a=1\n', ...DIFF_SCENARIO_FILES
    }, { windowPer: 'test', beforeLoad: page => traffic = ReceivedTraffic.record(page) });

    /** The secret in every discovery file on disk now: each CLI flavour's, of every window of the backend. */
    function discoveryTokens(): string[] {
        const dirs = [geminiDiscoveryDirectory(bed.sandbox), path.join(bed.sandbox.home, '.qwen', 'ide'), path.join(bed.sandbox.home, '.claude', 'ide')];
        return dirs.flatMap(dir => fs.existsSync(dir) ? fs.readdirSync(dir).map(name => path.join(dir, name)) : [])
            .map(file => JSON.parse(fs.readFileSync(file, 'utf8')).authToken as string);
    }

    async function diffEditorShown(): Promise<void> {
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });
    }

    async function diffEditorGone(): Promise<void> {
        await until(async () => await bed.window.page.locator(DIFF_EDITOR).count() === 0, 'the diff editor to close', 20000);
    }

    // The stories the code-server spec runs too, from the same source.
    for (const scenario of DIFF_SCENARIOS) {
        it(scenario.title, () => scenario.run({
            window: bed.window, client: bed.probe, workspace: bed.workspace,
            connect: () => Promise.reject(new Error('a diff scenario connects no second client')),
            whileProposalEdited: async () => {
                const title = await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current').innerText();
                expect(title).to.match(/edited\.txt ↔ proposed by Gemini CLI \(\S+-client 0\.61\.0\)/);
                await bed.window.saveDocScreenshot('diff-review', bed.window.page.locator('#theia-main-content-panel'));
            }
        }));
    }

    it('never sends a token to the browser: nothing the window received while it started, opened a terminal, served the CLI and its diff, '
        + 'showed its status, diagnostic report and log holds one', async () => {
        const file = path.join(bed.workspace, 'src', 'app.ts');
        const marker = `proposed by the probe ${Date.now()}`;
        bed.probe.openDiff(file, `line 1\n${marker}\n`);
        await diffEditorShown();
        await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();
        expect((await bed.probe.diffOutcome('diff', file)).result?.status).to.equal('accepted');
        await diffEditorGone();
        await bed.window.runCommand('CLI Companion: Show Status');
        await until(async () => /127\.0\.0\.1:\d+/.test(await bed.window.page.locator('.ai-cli-companion-state').innerText().catch(() => '')), 'the status view', 20000);
        await bed.window.page.locator('[data-command="aiCliCompanion.copyDiagnostics"]').click();
        const report = await until(async () => {
            const text = await bed.window.clipboardText().catch(() => '');
            return text.startsWith('# CLI Companion diagnostic report') && text;
        }, 'the diagnostic report on the clipboard', 20000);
        await bed.window.page.locator('[data-command="aiCliCompanion.showLog"]').click();
        await bed.window.page.locator('#outputView').waitFor({ state: 'visible', timeout: 20000 });

        // What was recorded is what the browser got: the proposal is in it, as the bytes of Theia's RPC.
        expect(traffic.frameCount).to.be.greaterThan(0);
        expect(await traffic.find(marker), 'the proposal in the received traffic').to.not.deep.equal([]);
        const tokens = discoveryTokens();
        expect(tokens.length, 'Gemini CLI\'s, Qwen Code\'s and Claude Code\'s secrets of this window').to.be.at.least(3);
        for (const token of tokens) {
            expect(await traffic.find(token), 'where a token reached the browser').to.deep.equal([]);
            expect(bed.backend.log, 'the backend log').to.not.contain(token);
            expect(report, 'the diagnostic report').to.not.contain(token);
        }
    });

    it('with aiCliCompanion.diff.writeOnAccept, the IDE itself writes exactly the accepted text', async () => {
        await bed.closeWindow();
        updateTheiaSettings(bed.sandbox, { 'aiCliCompanion.diff.writeOnAccept': true });
        try {
            await bed.openWindow();
            const file = path.join(bed.workspace, 'config.txt');
            bed.probe.openDiff(file, 'a=1\r\nwritten=by the IDE\r\n');
            await diffEditorShown();
            await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();
            const outcome = await bed.probe.diffOutcome('diff', file);
            expect(outcome.result).to.deep.equal({ status: 'accepted', content: 'a=1\r\nwritten=by the IDE\r\n' });
            await until(() => fs.readFileSync(file, 'utf8') === 'a=1\r\nwritten=by the IDE\r\n', 'the IDE to write the file', 10000);
        } finally {
            updateTheiaSettings(bed.sandbox, { 'aiCliCompanion.diff.writeOnAccept': undefined });
        }
    });

    it('rejects when the user closes the diff tab, edited or not, without asking to save the proposal', async () => {
        const file = path.join(bed.workspace, 'notes.md');
        bed.probe.openDiff(file, '# Notes\nmore\n');
        await diffEditorShown();
        await bed.window.closeEditor('notes.md');
        expect((await bed.probe.diffOutcome('diff', file)).result?.status).to.equal('rejected');

        bed.probe.openDiff(file, '# Notes\nedited, then closed\n');
        await diffEditorShown();
        await bed.window.diff.focusEndOfProposal();
        await bed.window.page.keyboard.type('typed');
        await bed.window.closeEditor('notes.md');
        expect((await bed.probe.diffOutcome('diff', file)).result?.status).to.equal('rejected');
        expect(await bed.window.page.locator('.dialogBlock').count(), 'no "save changes?" dialog').to.equal(0);
        expect(fs.readFileSync(file, 'utf8')).to.equal('# Notes\n');
    });

    it('rejects from the Close All Diffs command', async () => {
        const file = path.join(bed.workspace, 'notes.md');
        bed.probe.openDiff(file, '# Notes\nsecond\n');
        await diffEditorShown();
        await bed.window.runCommand('Close All Diffs');
        expect((await bed.probe.diffOutcome('diff', file)).result?.status).to.equal('rejected');
        await diffEditorGone();
    });

    it('closes a review diff (its tab, ✓, ✗, Ctrl+S, the CLI\'s closeDiff) over the file\'s own editor with no error in the browser console; '
        + 'the status bar shows that editor\'s cursor', async () => {
        const errors: string[] = [];
        bed.window.page.on('console', message => message.type() === 'error' && errors.push(message.text()));
        bed.window.page.on('pageerror', error => errors.push(`${error.name}: ${error.message}`));
        const file = path.join(bed.workspace, 'notes.md');
        // The file's own editor is open too: it becomes the current editor again when the diff goes.
        await bed.window.openFile('notes.md');
        const closes: Array<[string, () => Promise<unknown>, 'accepted' | 'rejected' | undefined]> = [
            // Theia's own close first: the user clicks the tab's ×.
            ['its tab', () => bed.window.closeEditor('notes.md ↔'), 'rejected'],
            ['✓', () => bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click(), 'accepted'],
            ['✗', () => bed.window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-close').first().click(), 'rejected'],
            ['Ctrl+S', async () => {
                await bed.window.diff.focusEndOfProposal();
                await bed.window.page.keyboard.press('Control+s');
            }, 'accepted'],
            ['closeDiff', async () => bed.probe.closeDiff(file, true), undefined]
        ];
        for (const [how, close, outcome] of closes) {
            bed.probe.openDiff(file, `# Notes\nclosed by ${how}\n`);
            await diffEditorShown();
            // The cursor in the proposal: the status bar shows its position, as when the user reviews it.
            await bed.window.diff.focusEndOfProposal();
            await close();
            if (outcome) {
                expect((await bed.probe.diffOutcome('diff', file)).result?.status, how).to.equal(outcome);
            } else {
                await bed.probe.diffOutcome('closeDiff', file);
            }
            await diffEditorGone();
            // Theia's frontend logger also forwards what it logs to the backend's log.
            await until(() => errors.length > 0 || /'lineNumber'/.test(bed.backend.log) || bed.window.page.locator('#theia-statusBar .element', { hasText: /^Ln 1, Col 1$/ }).count()
                .then(count => count > 0), 'notes.md\'s cursor in the status bar, or an error', 10000);
            expect([...errors, ...bed.backend.log.split('\n')].filter(line => /getPosition|'lineNumber'/.test(line)), `after closing by ${how}`).to.deep.equal([]);
            // notes.md's editor is current again, and the status bar shows its cursor.
            await bed.window.waitForCursorStatus(1, 1);
        }
    });

    it('closes the view when the CLI answers itself (closeDiff with suppressNotification) and returns the proposed text', async () => {
        const file = path.join(bed.workspace, 'src', 'app.ts');
        bed.probe.openDiff(file, 'from the terminal\n');
        await diffEditorShown();
        bed.probe.closeDiff(file, true);
        const closed = await bed.probe.diffOutcome('closeDiff', file);
        expect(closed.content).to.equal('from the terminal\n');
        await diffEditorGone();
    });

    it('warns before accepting over unsaved edits of the file, and accepts only when the user says so (with auto-save off: else no edit stays unsaved)', async () => {
        await bed.window.changeSettings(bed.sandbox, { 'files.autoSave': 'off' });
        try {
            const file = path.join(bed.workspace, 'notes.md');
            await bed.window.openFile('notes.md');
            await bed.window.page.keyboard.press('Control+End');
            await bed.window.page.keyboard.type('unsaved user edit');
            bed.probe.openDiff(file, '# Notes\nfrom the CLI\n');
            await diffEditorShown();
            await bed.window.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines`).click();
            await bed.window.page.keyboard.press('Control+s');
            const dialog = bed.window.page.locator('.dialogBlock');
            await dialog.waitFor({ state: 'visible', timeout: 10000 });
            expect(await dialog.innerText()).to.match(/unsaved changes/);
            await dialog.locator('button', { hasText: 'Accept Anyway' }).click();
            const outcome = await bed.probe.diffOutcome('diff', file);
            expect(outcome.result).to.deep.equal({ status: 'accepted', content: '# Notes\nfrom the CLI\n' });
        } finally {
            await bed.window.changeSettings(bed.sandbox, { 'files.autoSave': undefined });
        }
    });

    it('with the default auto-save, an edit of the file saved while the diff is open is flagged before accepting', async () => {
        const file = path.join(bed.workspace, 'settings.ini');
        bed.probe.openDiff(file, 'a=1\nb=2\n');
        await diffEditorShown();
        await bed.window.openFile('settings.ini');
        await bed.window.page.keyboard.press('Control+End');
        await bed.window.page.keyboard.type('c=3');
        await until(() => fs.readFileSync(file, 'utf8').includes('c=3'), 'auto-save to write the user\'s edit', 10000);
        await bed.window.diff.focusProposal();
        await bed.window.page.keyboard.press('Control+s');
        const dialog = bed.window.page.locator('.dialogBlock');
        await dialog.waitFor({ state: 'visible', timeout: 10000 });
        expect(await dialog.innerText()).to.match(/changed on disk since the diff opened/).and.not.to.match(/unsaved changes/);
        await dialog.locator('button', { hasText: 'Accept Anyway' }).click();
        const outcome = await bed.probe.diffOutcome('diff', file);
        expect(outcome.result).to.deep.equal({ status: 'accepted', content: 'a=1\nb=2\n' });
    });

    it('refuses a file outside the workspace folders and says why', async () => {
        const outside = path.join(bed.sandbox.root, 'elsewhere.txt');
        bed.probe.openDiff(outside, 'nope\n');
        const outcome = await bed.probe.diffOutcome('diff', outside);
        expect(outcome.error).to.match(/outside the workspace folders/);
        expect(await bed.window.page.locator(DIFF_EDITOR).count()).to.equal(0);
    });
});
