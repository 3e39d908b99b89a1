import { Page } from 'playwright-core';
import { IdeDiffView } from './ide-window';
import { until } from '../support/processes';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';

/** The Monaco diff editor a proposal opens in, in a Theia window's main area: driven as a user does, with keyboard and mouse. */
export class TheiaDiffEditor implements IdeDiffView {
    constructor(protected readonly page: Page) { }

    async waitForDiff(name: string, timeoutMs = 20000): Promise<void> {
        await this.page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current', { hasText: `${name} ↔` }).waitFor({ timeout: timeoutMs });
        await this.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: timeoutMs });
    }

    async waitForNoDiff(timeoutMs = 20000): Promise<void> {
        await until(async () => await this.page.locator(DIFF_EDITOR).count() === 0, 'the diff editor to close', timeoutMs);
    }

    async typeAtEndOfProposal(text: string): Promise<void> {
        await this.focusEndOfProposal();
        await this.page.keyboard.type(text);
    }

    async saveProposal(): Promise<void> {
        await this.focusProposal();
        await this.page.keyboard.press('Control+s');
    }

    async acceptDiff(): Promise<void> {
        await this.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();
    }

    async rejectDiff(): Promise<void> {
        await this.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-close').first().click();
    }

    /** Reverts the first change once the diff has been computed (the gutter shows no arrow before). */
    async revertFirstChange(): Promise<void> {
        await this.page.locator(`${DIFF_EDITOR} .editor.modified`).locator('.line-insert, .char-insert').first().waitFor({ state: 'attached', timeout: 20000 });
        const before = await this.proposalText();
        await this.revertFirstChangeFromGutter();
        await until(async () => await this.proposalText() !== before, 'the first change to be reverted', 10000);
    }

    /**
     * Puts the cursor at the end of the open diff's proposed side, once the diff has been computed:
     * the diff editor moves the cursor to the first change when it finishes, and keys typed before
     * that would land there.
     */
    async focusEndOfProposal(): Promise<void> {
        const modified = this.page.locator('#theia-main-content-panel .monaco-diff-editor .editor.modified');
        await modified.locator('.line-insert, .char-insert').first().waitFor({ state: 'attached', timeout: 20000 });
        await modified.locator('.view-lines').click();
        await this.page.keyboard.press('Control+End');
    }

    /**
     * Adds a line at the end of the open proposal (which ends with a newline), as a user does: a new
     * line first, then the words. Enter after the words could take a word completion Monaco offers
     * instead of breaking the line (it did on a loaded machine). Resolves once the proposal shows it.
     */
    async appendLineToProposal(line: string): Promise<void> {
        await this.focusEndOfProposal();
        await this.page.keyboard.press('Enter');
        await this.page.keyboard.press('ArrowUp');
        await this.page.keyboard.type(line);
        await until(async () => (await this.proposalText()).endsWith(`\n${line}\n`), `the proposal to end with ${JSON.stringify(line)}`, 10000)
            .catch(async error => { throw new Error(`${error.message}: ${JSON.stringify(await this.proposalText())}`); });
    }

    /** The text the open diff's proposed (right) side shows, one line per row. */
    async proposalText(): Promise<string> {
        const lines = await this.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines .view-line`).evaluateAll(rows =>
            rows.map(row => ({ top: parseFloat((row as HTMLElement).style.top), text: (row as HTMLElement).innerText })));
        // Monaco renders lines in any DOM order and spaces as U+00A0.
        return lines.sort((a, b) => a.top - b.top).map(line => line.text.replace(/\u00a0/g, ' ')).join('\n');
    }

    /**
     * Reverts the open diff's first change (lines 1 and 2) with the arrow in the gutter between the
     * two sides, as a user does with the mouse: hover the gutter beside it, click "Reject Change".
     */
    async revertFirstChangeFromGutter(): Promise<void> {
        const gutter = this.page.locator(`${DIFF_EDITOR} .gutter`).first();
        const box = await gutter.boundingBox();
        if (!box) {
            throw new Error('The diff editor shows no gutter between its sides');
        }
        await this.page.mouse.move(box.x + box.width / 2, box.y + 8);
        const arrows = this.page.locator(`${DIFF_EDITOR} .gutter [aria-label="Reject Change"]`);
        const index = await until(async () => {
            const tops = await arrows.evaluateAll(nodes => nodes.map(node => node.checkVisibility() ? node.getBoundingClientRect().top : Infinity));
            const first = tops.findIndex(top => top - box.y < 40);
            return first >= 0 && first + 1;
        }, 'the gutter\'s revert arrow beside the first change', 10000);
        await arrows.nth(index - 1).click();
    }

    /**
     * Clicks an action of the gutter toolbar beside the change whose proposed side shows `lineText`
     * (Accept Change, Reject Change), as a user does: hover the gutter at that line, click.
     */
    async clickChangeAction(lineText: string, action: string): Promise<void> {
        const line = this.page.locator(`${DIFF_EDITOR} .editor.modified .view-line`, { hasText: lineText }).first();
        const lineBox = await line.boundingBox();
        const gutterBox = await this.page.locator(`${DIFF_EDITOR} .gutter`).first().boundingBox();
        if (!lineBox || !gutterBox) {
            throw new Error(`No line ${JSON.stringify(lineText)} or no gutter in the diff editor`);
        }
        await this.page.mouse.move(gutterBox.x + gutterBox.width / 2, lineBox.y + lineBox.height / 2);
        const buttons = this.page.locator(`${DIFF_EDITOR} .gutter [aria-label="${action}"]`);
        const index = await until(async () => {
            const tops = await buttons.evaluateAll(nodes => nodes.map(node => node.checkVisibility() ? node.getBoundingClientRect().top : Infinity));
            const near = tops.findIndex(top => Math.abs(top - lineBox.y) < lineBox.height * 1.5);
            return near >= 0 && near + 1;
        }, `the gutter's ${action} beside ${JSON.stringify(lineText)}`, 10000).catch(async error => {
            const shown = await this.page.locator(`${DIFF_EDITOR} .gutter [aria-label]`).evaluateAll(nodes => nodes.map(node => node.getAttribute('aria-label')));
            throw new Error(`${error.message}; the gutter shows ${JSON.stringify(shown)}`);
        });
        await buttons.nth(index - 1).click();
    }

    /** Clicks into the open diff's proposed side, as a user does before pressing a key there. */
    async focusProposal(): Promise<void> {
        await this.page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: '↔' }).first().click();
        await this.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines`).click();
        await until(() => this.page.evaluate(() => !!document.activeElement?.closest('.editor.modified')), 'the proposal to have the focus', 10000);
    }
}
