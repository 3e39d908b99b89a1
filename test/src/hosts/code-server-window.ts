import * as fs from 'fs';
import * as path from 'path';
import { BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { BrowserTerminal } from './browser-terminal';
import { IdeWindow, ReviewPaceLabel } from './ide-window';
import { until } from '../support/processes';
import { Sandbox } from '../support/sandbox';

const STATUS_ITEM = '.statusbar-item:has-text("CLI")';
const DIFF_EDITOR = '.editor-group-container.active .monaco-diff-editor';

/** Drives one code-server window the way a user does: keyboard, terminal, title bar, status bar. */
export class CodeServerWindow implements IdeWindow {
    readonly host = 'code-server';
    protected readonly terminal: BrowserTerminal;

    constructor(readonly page: Page, protected readonly scratchDir: string, protected readonly context: BrowserContext) {
        this.terminal = new BrowserTerminal(page, scratchDir, '.terminal-wrapper .xterm-helper-textarea', what => this.describeForFailure(what));
    }

    /** A new window in its own browser profile, once the workbench is up and the extension's status bar item shows. */
    static async open(sandbox: Sandbox, url: string): Promise<CodeServerWindow> {
        const context = await launchBrowser(sandbox);
        try {
            const page = await context.newPage();
            await page.goto(url);
            await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
            const window = new CodeServerWindow(page, sandbox.tmp, context);
            await page.locator(STATUS_ITEM).first().waitFor({ timeout: 60000 }).catch(async error => {
                throw new Error(`${(error as Error).message}; ${await window.describeForFailure('code-server-window')}`);
            });
            return window;
        } catch (error) {
            await context.close();
            throw error;
        }
    }

    async close(): Promise<void> {
        await this.page.close().catch(() => undefined);
        await this.context.close().catch(() => undefined);
    }

    async statusText(): Promise<string> {
        return (await this.page.locator(STATUS_ITEM).first().innerText()).trim();
    }

    async waitForStatus(pattern: RegExp, timeoutMs = 30000): Promise<string> {
        return until(async () => {
            const text = await this.statusText().catch(() => '');
            return pattern.test(text) && text;
        }, `the status bar item to match ${pattern}`, timeoutMs);
    }

    /** Opens a new terminal (Ctrl+Shift+`) and waits until its shell runs commands. */
    async openTerminal(): Promise<void> {
        const inputs = this.page.locator('.terminal-wrapper .xterm-helper-textarea');
        const before = await inputs.count();
        await this.page.locator('.monaco-workbench').click({ position: { x: 700, y: 300 } }).catch(() => undefined);
        await this.page.keyboard.press('Control+Shift+Backquote');
        await until(async () => await inputs.count() > before && await this.terminal.hasFocus(), 'a new, focused terminal', 30000);
        await this.terminal.run('true', 60000);
    }

    run(command: string, timeoutMs = 30000): Promise<void> {
        return this.terminal.run(command, timeoutMs);
    }

    terminalEnvironment(cwd?: string): Promise<Record<string, string>> {
        return this.terminal.environment(cwd);
    }

    /** Opens a workspace file with Quick Open (Ctrl+P) and waits for its editor to have the focus. */
    async openFile(relativePath: string): Promise<void> {
        const name = path.basename(relativePath);
        await this.focusEditorArea();
        await this.page.keyboard.press('Control+p');
        const input = this.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        await input.fill(relativePath);
        // The list shows the recently opened files until it has filtered: Enter picks the first row.
        const first = this.page.locator('.quick-input-list .monaco-list-row').first();
        await until(async () => (await first.innerText().catch(() => '')).includes(name), `Quick Open to offer ${relativePath} first`, 10000);
        await input.press('Enter');
        await until(async () => {
            const active = await this.page.locator('.editor-group-container.active .tab.active').innerText().catch(() => '');
            return active.includes(name) && await this.page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'));
        }, `the editor of ${relativePath}`, 20000);
    }

    /** Moves the cursor with Go to Line (Ctrl+G): 1-based line and column. */
    async goTo(line: number, column: number): Promise<void> {
        await this.page.keyboard.press('Control+g');
        const input = this.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        await input.fill(`:${line}:${column}`);
        await input.press('Enter');
        await this.waitForCursorStatus(line, column);
    }

    async waitForCursorStatus(line: number, column: number): Promise<void> {
        await until(async () => (await this.page.locator('.statusbar-item').allInnerTexts()).some(text => text.includes(`Ln ${line}, Col ${column}`)),
            `the cursor at Ln ${line}, Col ${column}`, 10000);
    }

    async selectRight(characters: number): Promise<void> {
        const position = await until(async () => (await this.page.locator('.statusbar-item').allInnerTexts())
            .map(text => /Ln (\d+), Col (\d+)/.exec(text)).find((match): match is RegExpExecArray => !!match), 'the cursor in the status bar', 10000);
        for (let i = 0; i < characters; i++) {
            await this.page.keyboard.press('Shift+ArrowRight');
        }
        await this.waitForCursorStatus(Number(position[1]), Number(position[2]) + characters);
    }

    /** Runs a command from the command palette (F1), picking the row that shows `label`. */
    async runCommand(label: string): Promise<void> {
        await this.focusEditorArea();
        await this.page.keyboard.press('F1');
        const input = this.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        await input.fill(`>${label}`);
        await this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor();
        await input.press('Enter');
    }

    /** The diff editor of the active group, once it shows a proposal. */
    async waitForDiff(name: string, timeoutMs = 30000): Promise<void> {
        await this.page.locator('.editor-group-container.active .tab.active', { hasText: name }).waitFor({ timeout: timeoutMs });
        await this.page.locator(DIFF_EDITOR).waitFor({ timeout: timeoutMs });
    }

    async diffCount(): Promise<number> {
        return this.page.locator('.monaco-diff-editor').count();
    }

    async waitForNoDiff(timeoutMs = 10000): Promise<void> {
        await until(async () => await this.diffCount() === 0, 'the diff to close', timeoutMs);
    }

    /** Types `text` at the end of the proposal (the diff's right side). */
    async typeAtEndOfProposal(text: string): Promise<void> {
        const modified = this.page.locator(`${DIFF_EDITOR} .editor.modified`);
        await modified.locator('.view-lines').click();
        await this.page.keyboard.press('Control+End');
        await this.page.keyboard.type(text);
    }

    /** The text the diff's proposed (right) side shows, one line per row. */
    async proposalText(): Promise<string> {
        const lines = await this.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines .view-line`).evaluateAll(rows =>
            rows.map(row => ({ top: parseFloat((row as HTMLElement).style.top), text: (row as HTMLElement).innerText })));
        // Monaco renders lines in any DOM order and spaces as U+00A0.
        return lines.sort((a, b) => a.top - b.top).map(line => line.text.replace(/\u00a0/g, ' ')).join('\n');
    }

    /** Reverts one change of the proposal with the arrow the diff's gutter shows when the change is hovered. */
    async revertChange(index: number): Promise<void> {
        // The proposal's text tells: the gutter may keep the items of a diff this editor showed before.
        const before = await this.proposalText();
        const item = this.page.locator(`${DIFF_EDITOR} .gutterItem`).nth(index);
        await item.hover();
        await item.locator('.action-label.codicon-arrow-right').click();
        await until(async () => await this.proposalText() !== before, 'the change to be reverted', 10000);
    }

    async revertFirstChange(): Promise<void> {
        await until(async () => await this.page.locator(`${DIFF_EDITOR} .gutterItem`).count() > 0, 'the diff to show its changes', 10000);
        await this.revertChange(0);
    }

    /** Clicks into the proposal (the diff's right side) and waits until it has the keyboard. */
    async focusProposal(): Promise<void> {
        await this.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines`).click();
        await until(() => this.page.evaluate(() => !!document.activeElement?.closest('.editor.modified')), 'the proposal to have the focus', 10000);
    }

    /** Saves the proposal (the diff's right side) with Ctrl+S: our keybinding there accepts it. */
    async saveProposal(): Promise<void> {
        await this.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines`).click();
        await this.page.keyboard.press('Control+s');
    }

    /** Closes the active editor with Ctrl+W, as a user does. */
    async closeActiveEditor(): Promise<void> {
        const tabs = this.page.locator('.editor-group-container.active .tab');
        const before = await tabs.count();
        await this.page.keyboard.press('Control+w');
        await until(async () => await tabs.count() < before, 'the editor to close', 10000);
    }

    /** Flips a boolean setting (the search's first result) in the Settings editor, as a user does; the editor is closed again. */
    async toggleSetting(id: string): Promise<void> {
        await this.runCommand('Preferences: Open User Settings');
        const editor = this.page.locator('.settings-editor');
        await editor.waitFor();
        await this.page.locator('.settings-editor .suggest-input-container .monaco-editor textarea').focus();
        await this.page.keyboard.type(id);
        // The search is fuzzy: the exact match comes first.
        const item = this.page.locator('.settings-editor .setting-item-contents').first();
        await until(async () => (await this.page.locator('.settings-editor .settings-count-widget').innerText().catch(() => '')).includes('Found'),
            `the search for ${id}`, 10000);
        await item.locator('.setting-value-checkbox').click();
        await this.closeActiveEditor();
    }

    /** Answers the modal dialog in front of the workbench with the button that reads `label`. */
    async answerDialog(label: string | RegExp, timeoutMs = 30000): Promise<void> {
        const button = this.page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: label }).first();
        await button.waitFor({ timeout: timeoutMs });
        await button.click();
        await button.waitFor({ state: 'detached', timeout: 10000 });
    }

    /** Closes the editor whose tab shows `name`: its tab clicked, then Ctrl+W. */
    async closeEditor(name: string): Promise<void> {
        await this.page.locator('.editor-group-container.active .tab', { hasText: name }).first().click();
        await this.closeActiveEditor();
    }

    acceptDiff(): Promise<void> {
        return this.clickTitleAction('Accept Diff');
    }

    rejectDiff(): Promise<void> {
        return this.clickTitleAction('Reject Diff');
    }

    /** Clicks the companion's status bar item and waits for its menu. */
    async openStatusMenu(): Promise<void> {
        await this.page.locator(STATUS_ITEM).first().click();
        await this.page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
    }

    /** Waits until the quick pick in front asks `placeholder` (the one before it may still show its rows until then). */
    async waitForQuickPick(placeholder: string): Promise<void> {
        await this.page.locator(`.quick-input-widget input[placeholder="${placeholder}"]`).waitFor({ state: 'visible', timeout: 10000 });
    }

    /** The rows of the quick pick in front, as their label and description read. */
    async quickPickRows(): Promise<string[]> {
        return this.page.locator('.quick-input-list .monaco-list-row').evaluateAll(nodes => nodes.map(node =>
            [...node.querySelectorAll('.label-name, .label-description')].map(part => (part as HTMLElement).innerText).join(' ')));
    }

    /** Picks the row of the quick pick in front whose label is `label` (after its icon, if it has one). */
    async pickQuickItem(label: string): Promise<void> {
        const name = this.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) });
        const row = this.page.locator('.quick-input-list .monaco-list-row', { has: name }).first();
        await row.waitFor({ timeout: 10000 });
        await row.click();
    }

    /** The Pending Changes view (in Source Control), shown with its command. */
    async showPendingChanges(): Promise<void> {
        await this.runCommand('AI CLI Companion: Show Pending Changes');
        // Its list is hidden while the view shows its message that nothing waits.
        await this.pendingChangesPane().locator('.pane-body').waitFor({ timeout: 10000 });
    }

    pendingChangesPane(): Locator {
        return this.page.locator('.pane', { has: this.page.locator('.pane-header', { hasText: /Pending Changes/i }) });
    }

    /** Pending Changes' rows, top to bottom: their level in the tree (1: a session or the applied changes), label and description. */
    async pendingRows(): Promise<{ level: number; name: string; description: string }[]> {
        const rows = await this.pendingChangesPane().locator('.monaco-list-row').evaluateAll(nodes => nodes.map(node => ({
            top: parseFloat((node as HTMLElement).style.top), level: Number(node.getAttribute('aria-level')),
            name: (node.querySelector('.label-name') as HTMLElement | null)?.innerText.trim() ?? '',
            description: (node.querySelector('.label-description') as HTMLElement | null)?.innerText.trim() ?? ''
        })));
        return rows.sort((a, b) => a.top - b.top);
    }

    /** Clicks an inline action (Accept Diff, Reject Diff, Undo Change…) of the Pending Changes row that shows `rowText`. */
    async clickPendingAction(rowText: string | RegExp, action: string): Promise<void> {
        const row = this.pendingChangesPane().locator('.monaco-list-row', { hasText: rowText }).first();
        await row.hover();
        await row.locator(`.action-label[aria-label^="${action}"]`).click();
    }

    /** Clicks an action in the Pending Changes view's title bar (Accept All Diffs, Reject All Diffs). */
    async clickPendingTitleAction(action: string): Promise<void> {
        const pane = this.pendingChangesPane();
        await pane.locator('.pane-header').hover();
        await pane.locator(`.pane-header .action-label[aria-label^="${action}"]`).click();
    }

    /**
     * Right-clicks the line of the active editor (of the diff's proposed side, in a diff) that shows `lineText`, at its start, and picks
     * `label` from the context menu. A line inside the selection keeps the selection; any other line gets the cursor, as for a user.
     */
    async pickFromContextMenuAtLine(lineText: string, label: string): Promise<void> {
        const editor = await this.page.locator(DIFF_EDITOR).count() ? `${DIFF_EDITOR} .editor.modified` : '.editor-group-container.active .monaco-editor';
        await this.page.locator(`${editor} .view-line`, { hasText: lineText }).first().click({ button: 'right', position: { x: 5, y: 5 } });
        await this.pickMenuItem(label);
    }

    /** Picks `label` from the open context menu. */
    protected async pickMenuItem(label: string): Promise<void> {
        // A menu item's accessible name is its label followed by its keybinding.
        const item = this.page.getByRole('menuitem', { name: new RegExp(`^${escapeRegExp(label)}`) });
        await item.waitFor({ timeout: 10000 });
        // The workbench's menu ignores a click that arrives at once; the item hovered, Enter runs it as from the keyboard.
        await item.hover();
        await this.page.keyboard.press('Enter');
        await item.waitFor({ state: 'hidden', timeout: 10000 });
    }

    async setReviewPace(cli: string, pace: ReviewPaceLabel): Promise<void> {
        const openPicker = async () => {
            await this.openStatusMenu();
            await this.pickQuickItem('Set Review Pace…');
            await this.waitForQuickPick('Whose proposed changes?');
        };
        await openPicker();
        await this.pickQuickItem(cli);
        await this.waitForQuickPick(`How should changes from ${cli} reach you?`);
        await this.pickQuickItem(pace);
        // The picker shows each CLI's pace as the extension reads it: once it shows the new one, the next proposal is paced by it.
        let shown: string[] = [];
        await until(async () => {
            await openPicker();
            shown = await this.quickPickRows();
            await this.page.keyboard.press('Escape');
            return shown.some(row => row.startsWith(`${cli} ${pace}`));
        }, `the extension to pace ${cli} by "${pace}"`, 10000).catch(error => {
            throw new Error(`${error.message}; the picker shows ${JSON.stringify(shown)}`);
        });
    }

    async pendingCount(): Promise<number> {
        return Number(/CLI: (\d+) to review/.exec(await this.statusText())?.[1] ?? 0);
    }

    async pendingChanges(): Promise<{ waiting: string[]; applied: string[] }> {
        await this.showPendingChanges();
        const listing = { waiting: [] as string[], applied: [] as string[] };
        let parent = '';
        for (const row of await this.pendingRows()) {
            parent = row.level === 1 ? row.name : parent;
            if (row.level !== 1) {
                (parent === 'Applied without review' ? listing.applied : listing.waiting).push(row.name);
            }
        }
        return listing;
    }

    async acceptPending(name: string): Promise<void> {
        await this.clickPendingAction(name, 'Accept Diff');
    }

    async undoApplied(name: string): Promise<void> {
        await this.clickPendingAction(name, 'Undo Change');
    }

    async notifications(): Promise<string[]> {
        return this.page.locator('.notification-list-item-message').allInnerTexts().catch(() => []);
    }

    /** Right-clicks the file `name` in the Explorer (shown first) and picks `label` from its context menu. */
    async pickFromExplorerContextMenu(name: string, label: string): Promise<void> {
        await this.page.keyboard.press('Control+Shift+E');
        await this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first().click({ button: 'right' });
        await this.pickMenuItem(label);
    }

    /** The text on the browser's clipboard (the window may read it: see launchBrowser). */
    clipboardText(): Promise<string> {
        return this.page.evaluate(() => navigator.clipboard.readText());
    }

    /** Answers the workspace trust dialog of a folder's first window "Yes, I trust the authors", as a user opening their own folder does. */
    trustFolder(): Promise<void> {
        return this.answerDialog(/Yes, I trust the authors/);
    }

    /** Clicks one of the diff's title bar actions (✓ Accept Diff, ✗ Reject Diff). */
    async clickTitleAction(label: string): Promise<void> {
        await this.page.locator(`.editor-group-container.active .editor-actions .action-label[aria-label^="${label}"]`).first().click();
    }

    async describeForFailure(what: string): Promise<string> {
        const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, `${what}-${Date.now()}.png`);
        await this.page.screenshot({ path: file }).catch(() => undefined);
        const notifications = await this.page.locator('.notification-list-item-message').allInnerTexts().catch(() => []);
        return `screenshot ${file}; notifications: ${JSON.stringify(notifications)}`;
    }

    protected async focusEditorArea(): Promise<void> {
        await this.page.locator('.editor-group-container.active').click({ position: { x: 300, y: 200 } }).catch(() => undefined);
    }
}

function escapeRegExp(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
