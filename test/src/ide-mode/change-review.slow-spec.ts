import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { IdeProbe } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { GeminiWindowTestbed } from '../support/gemini-window-testbed';
import { TheiaWindow } from '../hosts/theia-window';
import { REVIEW_SCENARIO_FILES, REVIEW_SCENARIOS } from '../scenarios/review-scenarios';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';
const ORIGINAL = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
/** Three separate changes (lines 2, 5 and 8), with the proposal's own line endings (CRLF where the file has LF). */
const PROPOSAL = 'one\r\nTWO\r\nthree\r\nfour\r\nFIVE\r\nsix\r\nseven\r\nEIGHT\r\nnine\r\n';

/**
 * Change-level review with Theia's default preferences (auto-save on): each change of a proposal is
 * kept or rejected on its own, and only the file-level accept answers the real Gemini IdeClient.
 */
describe('Change-level review: the real Gemini IdeClient proposes three changes, the user decides each', function (): void {
    this.timeout(300000);
    const bed = GeminiWindowTestbed.install({ 'numbers.txt': ORIGINAL, 'other.txt': 'alpha\nbeta\n', ...REVIEW_SCENARIO_FILES }, { windowPer: 'test' });

    async function proposeNumbers(): Promise<string> {
        const file = path.join(bed.workspace, 'numbers.txt');
        bed.probe.openDiff(file, PROPOSAL);
        await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });
        await until(async () => await bed.window.page.locator(`${DIFF_EDITOR} .editor.modified .line-insert`).count() >= 3, 'the diff of three changes', 20000);
        return file;
    }

    async function paletteOffers(label: string): Promise<boolean> {
        await bed.window.openCommandPalette(label);
        const rows = bed.window.page.locator('.quick-input-list .monaco-list-row', { hasText: label });
        // The list filters as the text is typed: wait until it shows what matches the whole text.
        await until(async () => await bed.window.page.locator('.quick-input-list .monaco-list-row').count() === await rows.count()
            || await rows.count() === 0, 'the palette to filter', 5000).catch(() => undefined);
        const offered = await rows.count() > 0;
        await bed.window.page.keyboard.press('Escape');
        return offered;
    }

    it('Reject Change on the second change, then Accept Diff: the CLI gets exactly the proposal with that change reverted', async () => {
        expect(await paletteOffers('CLI Companion: Reject Change'), 'offered without a review diff').to.equal(false);
        const file = await proposeNumbers();
        await bed.window.diff.focusProposal();
        await bed.window.goTo(5, 1);
        await bed.window.runCommand('CLI Companion: Reject Change', { keepFocus: true });
        await until(async () => (await bed.window.diff.proposalText()).includes('\nfive\n'), 'the second change to be reverted in the proposal', 10000);
        // The review moves on to the next undecided change (and focuses it) once the diff has caught up.
        await bed.window.waitForCursorStatus(8, 1);
        await bed.window.saveDocScreenshot('review-change-rejected', bed.window.page.locator('#theia-main-content-panel'));
        // With auto-save on, nothing has answered the CLI yet: a change decision never settles the proposal.
        expect(bed.probe.peekDiffOutcome('diff', file)).to.equal(undefined);
        expect(await paletteOffers('CLI Companion: Accept Change'), 'offered in a review diff').to.equal(true);

        await bed.window.diff.focusProposal();
        await bed.window.page.keyboard.press('Control+s');
        const outcome = await bed.probe.diffOutcome('diff', file);
        expect(outcome.result).to.deep.equal({ status: 'accepted', content: 'one\r\nTWO\r\nthree\r\nfour\r\nfive\nsix\r\nseven\r\nEIGHT\r\nnine\r\n' });
        expect(fs.readFileSync(file, 'utf8'), 'the CLI writes the file, not the IDE').to.equal(ORIGINAL);
    });

    it('the gutter offers Accept Change and Reject Change beside each change; the keys move and decide too', async () => {
        const file = await proposeNumbers();
        await bed.window.diff.clickChangeAction('EIGHT', 'Reject Change');
        await until(async () => (await bed.window.diff.proposalText()).includes('\neight\n'), 'the third change to be reverted', 10000);
        await bed.window.diff.clickChangeAction('TWO', 'Accept Change');
        await bed.window.page.locator(`${DIFF_EDITOR} .ai-cli-kept-change`).first().waitFor({ state: 'attached', timeout: 10000 });
        // A click in the gutter leaves the cursor alone; from the keyboard, Ctrl+Shift+Backspace rejects the change at the cursor.
        await bed.window.diff.focusProposal();
        await bed.window.goTo(5, 1);
        await bed.window.page.keyboard.press('Control+Shift+Backspace');
        await until(async () => (await bed.window.diff.proposalText()).includes('\nfive\n'), 'the second change to be reverted', 10000);
        // Only the kept change is left: Next Change (Alt+F5) visits every change, decided or not, and wraps around.
        await bed.window.goTo(9, 1);
        await bed.window.page.keyboard.press('Alt+F5');
        await bed.window.waitForCursorStatus(2, 1);
        expect(bed.probe.peekDiffOutcome('diff', file), 'no change decision answers the CLI').to.equal(undefined);

        await bed.window.page.keyboard.press('Control+s');
        const outcome = await bed.probe.diffOutcome('diff', file);
        expect(outcome.result).to.deep.equal({ status: 'accepted', content: 'one\r\nTWO\r\nthree\r\nfour\r\nfive\nsix\r\nseven\r\neight\nnine\r\n' });
    });

    it('Pending Changes lists the proposals of two CLI sessions by session; Accept All Diffs answers each once, to its own CLI', async () => {
        const qwen = new IdeProbe('qwen', await bed.window.terminalEnvironment(bed.workspace), bed.workspace);
        try {
            expect((await qwen.connected()).status.status).to.equal('connected');
            const numbers = path.join(bed.workspace, 'numbers.txt');
            const other = path.join(bed.workspace, 'other.txt');
            bed.probe.openDiff(numbers, PROPOSAL);
            qwen.openDiff(other, 'alpha\nBETA\n');
            // Two sessions connected, two changes waiting: "$(plug) CLI 2 $(diff) 2".
            await bed.window.waitForStatus(/^CLI 2\s+2$/);
            // Each diff opens in front and takes the keyboard: the palette would close if one did so while it is open.
            await until(async () => await bed.window.page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: '↔' }).count() === 2
                && await bed.window.page.evaluate(() => !!document.activeElement?.closest('.monaco-diff-editor')), 'both diffs open, one with the focus', 20000);
            await bed.window.runCommand('CLI Companion: Show Pending Changes');
            const view = bed.window.page.locator('.pending-review');
            await until(async () => await view.locator('[data-proposal]').count() === 2, 'the view to list both proposals', 20000);
            const groups = await view.locator('.pending-review-group-label').allInnerTexts();
            expect(groups).to.have.length(2);
            expect(groups.find(label => /^Gemini CLI \(\S+ 0\.61\.0\)$/.test(label)), `Gemini's session in ${groups}`).to.be.a('string');
            expect(groups.find(label => /^Qwen Code \(\S+ \d+\.\d+\.\d+\)$/.test(label)), `Qwen's session in ${groups}`).to.be.a('string');
            expect(await view.locator('.pending-review-group', { hasText: 'Qwen Code' }).locator('[data-file]').getAttribute('data-file')).to.equal('other.txt');

            await bed.window.runCommand('CLI Companion: Accept All Diffs');
            expect((await bed.probe.diffOutcome('diff', numbers)).result).to.deep.equal({ status: 'accepted', content: PROPOSAL });
            expect((await qwen.diffOutcome('diff', other)).result).to.deep.equal({ status: 'accepted', content: 'alpha\nBETA\n' });
            await until(async () => await view.locator('[data-proposal]').count() === 0, 'the view to empty', 10000);
            await bed.window.waitForStatus(/^CLI 2$/);
            expect(bed.probe.peekDiffOutcome('diff', other), 'Gemini hears nothing of Qwen\'s file').to.equal(undefined);
            expect(qwen.peekDiffOutcome('diff', numbers), 'Qwen hears nothing of Gemini\'s file').to.equal(undefined);
        } finally {
            await qwen.close();
        }
    });

    // The stories the code-server spec runs too, from the same source.
    for (const scenario of REVIEW_SCENARIOS) {
        it(scenario.title, () => scenario.run({
            window: bed.window, client: bed.probe, workspace: bed.workspace,
            connect: () => Promise.reject(new Error('a review scenario connects no second client')),
            whileQueued: async () => {
                await bed.window.saveDocScreenshot('review-queue', bed.window.page.locator('#theia-app-shell'));
            }
        }));
    }

    it('with two windows on the folder, a CLI\'s proposal opens and is listed in its own window only', async () => {
        const other = await TheiaWindow.open(bed.sandbox, bed.backend.url);
        try {
            await other.runCommand('CLI Companion: Show Pending Changes');
            await other.page.locator('.pending-review-empty').waitFor({ state: 'visible', timeout: 20000 });
            const file = path.join(bed.workspace, 'other.txt');
            bed.probe.openDiff(file, 'alpha\nGAMMA\n');
            await bed.window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });
            await bed.window.runCommand('CLI Companion: Show Pending Changes');
            await bed.window.page.locator('.pending-review [data-proposal]', { hasText: 'other.txt' }).waitFor({ state: 'visible', timeout: 10000 });
            expect(await other.page.locator(DIFF_EDITOR).count(), 'no diff in the other window').to.equal(0);
            expect(await other.page.locator('.pending-review [data-proposal]').count(), 'not listed in the other window').to.equal(0);
            expect(await other.statusText(), 'no count in the other window').to.match(/^\s*CLI\s*$/);
            await bed.window.runCommand('CLI Companion: Reject All Diffs');
            expect((await bed.probe.diffOutcome('diff', file)).result?.status).to.equal('rejected');
        } finally {
            await other.close();
        }
    });
});
