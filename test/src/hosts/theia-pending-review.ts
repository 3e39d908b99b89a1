import { Page } from 'playwright-core';
import { ReviewPaceLabel } from './ide-window';
import { until } from '../support/processes';

/** Pending Changes and the review pace in a Theia window, driven as a user does: the status bar menu, the view's actions. */
export class TheiaPendingReview {
    constructor(protected readonly page: Page, protected readonly statusItem: string) { }

    /** Sets a CLI's pace with Set Review Pace… from the status bar menu; resolves once the picker shows the window reads it. */
    async setReviewPace(cli: string, pace: ReviewPaceLabel): Promise<void> {
        await this.openPacePicker();
        await this.pickQuickItem(cli);
        await this.page.locator(`.quick-input-widget input[placeholder="How should changes from ${cli} reach you?"]`).waitFor({ state: 'visible', timeout: 10000 });
        await this.pickQuickItem(pace);
        await until(async () => {
            await this.openPacePicker();
            const row = await this.page.locator('.quick-input-list .monaco-list-row', { hasText: cli }).first().innerText();
            await this.page.keyboard.press('Escape');
            return row.includes(pace);
        }, `the window to pace ${cli} by "${pace}"`, 10000);
    }

    /** The file names the shown Pending Changes view lists as waiting and as applied without review. */
    async listing(): Promise<{ waiting: string[]; applied: string[] }> {
        const view = this.page.locator('.pending-review');
        await view.waitFor({ state: 'visible', timeout: 10000 });
        const names = (selector: string) => view.locator(selector).evaluateAll(nodes => nodes.map(node => node.getAttribute('data-file') ?? ''));
        return { waiting: await names('[data-proposal]'), applied: await names('[data-applied]') };
    }

    async acceptPending(name: string): Promise<void> {
        await this.page.locator(`.pending-review [data-proposal][data-file="${name}"] [data-action="accept"]`).click();
    }

    async undoApplied(name: string): Promise<void> {
        await this.page.locator(`.pending-review [data-applied][data-file="${name}"] [data-action="undo"]`).click();
    }

    protected async openPacePicker(): Promise<void> {
        await this.page.locator(this.statusItem).click();
        await this.pickQuickItem('Set Review Pace…');
        // The menu's rows stay until the picker replaces them ("Run Gemini CLI" would match "Gemini CLI").
        await this.page.locator('.quick-input-widget input[placeholder="Whose proposed changes?"]').waitFor({ state: 'visible', timeout: 10000 });
    }

    protected async pickQuickItem(label: string): Promise<void> {
        const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
        await row.waitFor({ state: 'visible', timeout: 10000 });
        await row.click();
    }
}
