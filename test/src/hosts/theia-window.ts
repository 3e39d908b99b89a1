import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, openTheiaWindow } from './browser';
import { BrowserTerminal } from './browser-terminal';
import { TheiaDiffEditor } from './theia-diff-editor';
import { TheiaPendingReview } from './theia-pending-review';
import { IdeWindow, ReviewPaceLabel } from './ide-window';
import { until } from '../support/processes';
import { readTheiaSettings, Sandbox, updateTheiaSettings } from '../support/sandbox';

const STATUS_ITEM = '#status-bar-ai-cli-ide-companion\\.status';
let settingsChanges = 0;
/**
 * Screenshots for the user guide are taken by the tests that show the feature working, when this
 * variable is `1` (`npm run docs:screenshots`, scripts/docs-screenshots.sh): a plain test run leaves docs/images as it is.
 */
export const DOC_SCREENSHOTS_ENV = 'THEIA_CLI_COMPANION_SCREENSHOTS';
export const DOC_IMAGES = path.resolve(__dirname, '..', '..', '..', 'docs', 'images');

/** Drives one Theia window the way a user does: keyboard, terminal, status bar. */
export class TheiaWindow implements IdeWindow {
    readonly host = 'Theia';
    protected readonly terminal: BrowserTerminal;
    /** The diff editor a proposal opens in. */
    readonly diff: TheiaDiffEditor;
    /** Pending Changes and the review pace. */
    readonly review: TheiaPendingReview;

    constructor(readonly page: Page, protected readonly scratchDir: string, protected readonly context?: BrowserContext) {
        this.diff = new TheiaDiffEditor(page);
        this.review = new TheiaPendingReview(page, STATUS_ITEM);
        this.terminal = new BrowserTerminal(page, scratchDir, '.terminal-container .xterm-helper-textarea', what => this.describeForFailure(what));
    }

    /**
     * A new window in its own browser profile; `beforeLoad` sees its page before the app loads. Theia's
     * workspace trust asks on the first window of a folder: the window answers it as a user does ({@link trustWorkspaceIfAsked}).
     * `settingsOf`: where the backend keeps the user's settings, when not in the sandbox (a container's).
     */
    static async open(sandbox: Sandbox, url: string, beforeLoad?: (page: Page) => void, settingsOf: Pick<Sandbox, 'theiaConfig'> = sandbox): Promise<TheiaWindow> {
        const context = await launchBrowser(sandbox);
        try {
            const window = new TheiaWindow(await openTheiaWindow(context, url, beforeLoad), sandbox.tmp, context);
            await window.trustWorkspaceIfAsked(settingsOf);
            return window;
        } catch (error) {
            await context.close();
            throw error;
        }
    }

    /**
     * Answers Theia's workspace trust dialog "Yes, I trust the authors", as a user opening their own folder does, when
     * Theia asks: trust on (its default), asked at start-up, and the folder not yet among the user's trusted folders
     * (Theia adds it there on that answer, so the next window on it is not asked). A test about trust sets
     * `security.workspace.trust.*` itself and answers the dialog its own way.
     */
    async trustWorkspaceIfAsked(sandbox: Pick<Sandbox, 'theiaConfig'>): Promise<void> {
        // No settings.json yet (a fresh home, as in a new container): Theia's defaults.
        const settings = fs.existsSync(path.join(sandbox.theiaConfig, 'settings.json')) ? readTheiaSettings(sandbox) : {};
        if (settings['security.workspace.trust.enabled'] === false || settings['security.workspace.trust.startupPrompt'] === 'never') {
            return;
        }
        // Theia puts the workspace into the URL before the workbench shows; a window without a folder is trusted (security.workspace.trust.emptyWindow).
        const workspace = decodeURI((await this.page.evaluate(() => window.location.hash)).slice(1));
        if (!workspace) {
            return;
        }
        const trusted = () => {
            let folders: string[];
            try {
                folders = (readTheiaSettings(sandbox)['security.workspace.trust.trustedFolders'] ?? []) as string[];
            } catch {
                return false; // Theia is writing the file now.
            }
            return folders.some(folder => {
                const relative = folder.startsWith('file:') ? path.relative(fileURLToPath(folder), workspace) : '..';
                return !relative.startsWith('..') && !path.isAbsolute(relative);
            });
        };
        if (trusted()) {
            return;
        }
        const dialog = this.page.locator('.workspace-trust-dialog');
        await dialog.waitFor({ state: 'visible', timeout: 20000 }).catch(async error => {
            throw new Error(`${error.message}: Theia did not ask whether to trust ${workspace}; ${await this.describeForFailure('workspace-trust')}`);
        });
        await dialog.locator('button', { hasText: 'Yes, I trust the authors' }).click();
        await dialog.waitFor({ state: 'detached', timeout: 10000 });
        await until(trusted, `${workspace} among the user's trusted folders`, 10000);
    }

    /** Closes the window the way a user closes the tab (the browser goes with it). */
    async close(): Promise<void> {
        await this.page.close().catch(() => undefined);
        await this.context?.close().catch(() => undefined);
    }

    /** Opens a new terminal (Ctrl+Shift+`) and waits until its shell runs commands. */
    async openTerminal(): Promise<void> {
        const before = await this.page.locator('.terminal-container').count();
        await this.page.locator('#theia-app-shell').click({ position: { x: 600, y: 300 } }).catch(() => undefined);
        await this.page.keyboard.press('Control+Shift+Backquote');
        await until(async () => await this.page.locator('.terminal-container').count() > before && await this.terminalHasFocus(), 'a new, focused terminal', 20000);
        // The shell is ready when it runs a command: write a marker file through it.
        await this.run('true', 60000);
    }

    /** A screenshot under test-results/ and the visible notifications, to explain a failure in CI logs. */
    async describeForFailure(what: string): Promise<string> {
        const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(dir, `${what}-${Date.now()}.png`);
        await this.page.screenshot({ path: file }).catch(() => undefined);
        const notifications = await this.page.locator('.theia-notification-message, .dialogContent').allInnerTexts().catch(() => []);
        const focused = await this.page.evaluate(() => document.activeElement?.className ?? '').catch(() => '');
        return `screenshot ${file}; focused: ${JSON.stringify(focused)}; notifications: ${JSON.stringify(notifications)}`;
    }

    /** Types a command into the focused terminal and waits until the shell has run it. */
    run(command: string, timeoutMs = 30000): Promise<void> {
        return this.terminal.run(command, timeoutMs);
    }

    /** Opens a workspace file with Quick Open (Ctrl+P), as a user does, and waits for its editor. */
    async openFile(relativePath: string): Promise<void> {
        const name = relativePath.split('/').pop()!;
        // A focused terminal keeps Ctrl+P for the shell: focus the main area first.
        await this.page.locator('#theia-main-content-panel').click({ position: { x: 300, y: 200 } });
        await this.page.keyboard.press('Control+p');
        const input = this.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        await input.fill(relativePath);
        await this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
        await this.page.keyboard.press('Enter');
        await until(async () => {
            const title: string[] = await this.page.locator('.p-TabBar-tab.p-mod-current .p-TabBar-tabLabel, .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel')
                .allInnerTexts().catch(() => []);
            return title.includes(name) && await this.page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'));
        }, `the editor of ${relativePath}`, 20000);
    }

    /**
     * Runs a command from the command palette (F1), picking the row that shows `label`. With
     * `keepFocus`, F1 goes to what has the focus now (a command about the cursor's place needs it there).
     */
    async runCommand(label: string, options: { keepFocus?: boolean } = {}): Promise<void> {
        if (!options.keepFocus) {
            await this.page.locator('#theia-main-content-panel').click({ position: { x: 300, y: 200 } });
        }
        const input = await this.openCommandPalette(label);
        await this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor();
        await input.press('Enter');
    }

    /**
     * F1, then puts `filter` into the palette's input itself and returns that input. Keys typed right after F1
     * can reach the editor behind the palette (CI saw the input shown before it had the focus, and the focus
     * leave it while typing), and in a review diff that text would become part of the proposal.
     */
    async openCommandPalette(filter: string): Promise<Locator> {
        await this.page.keyboard.press('F1');
        const input = this.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        await input.fill(`>${filter}`);
        return input;
    }

    /** Runs a configured task through the command palette (F1 → Run Task → its label). */
    async runTask(label: string): Promise<void> {
        await this.runCommand('Run Task');
        await this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor();
        await this.page.keyboard.type(label);
        await this.page.keyboard.press('Enter');
    }

    /** Closes an editor tab by its close icon, as a user does. */
    async closeEditor(name: string): Promise<void> {
        const tab = this.page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: name }).first();
        await tab.hover();
        await tab.locator('.lm-TabBar-tabCloseIcon').click({ force: true });
        await tab.waitFor({ state: 'detached', timeout: 10000 });
    }

    /** Moves the cursor with Go to Line (Ctrl+G): 1-based line and column. */
    async goTo(line: number, column: number): Promise<void> {
        await this.page.keyboard.press('Control+g');
        const input = this.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        // Go to Line's own prefix ':' keeps the mode; filling the input (not typing) keeps the keys out of the editor.
        await input.fill(`:${line}:${column}`);
        await input.press('Enter');
        await this.waitForCursorStatus(line, column);
    }

    async selectRight(characters: number): Promise<void> {
        const [line, column] = await this.cursorStatus();
        for (let i = 0; i < characters; i++) {
            await this.page.keyboard.press('Shift+ArrowRight');
        }
        await this.waitForCursorStatus(line, column + characters);
    }

    /** The 1-based line and column the editor's status bar item shows. */
    protected async cursorStatus(): Promise<[number, number]> {
        const position = await until(async () => (await this.page.locator('#theia-statusBar .element').allInnerTexts())
            .map(text => /Ln (\d+), Col (\d+)/.exec(text)).find((match): match is RegExpExecArray => !!match), 'the cursor in the status bar', 10000);
        return [Number(position[1]), Number(position[2])];
    }

    /** Waits until the editor's own status bar item shows this 1-based position. */
    async waitForCursorStatus(line: number, column: number): Promise<void> {
        await until(async () => {
            const texts = await this.page.locator('#theia-statusBar .element').allInnerTexts();
            return texts.some(text => text.includes(`Ln ${line}, Col ${column}`));
        }, `the cursor at Ln ${line}, Col ${column}`, 10000);
    }

    protected terminalHasFocus(): Promise<boolean> {
        return this.terminal.hasFocus();
    }

    /** The environment of the focused terminal's shell, as a CLI started there would see it. */
    terminalEnvironment(cwd?: string): Promise<Record<string, string>> {
        return this.terminal.environment(cwd);
    }

    waitForDiff(name: string, timeoutMs?: number): Promise<void> {
        return this.diff.waitForDiff(name, timeoutMs);
    }

    waitForNoDiff(timeoutMs?: number): Promise<void> {
        return this.diff.waitForNoDiff(timeoutMs);
    }

    typeAtEndOfProposal(text: string): Promise<void> {
        return this.diff.typeAtEndOfProposal(text);
    }

    revertFirstChange(): Promise<void> {
        return this.diff.revertFirstChange();
    }

    focusProposal(): Promise<void> {
        return this.diff.focusProposal();
    }

    proposalText(): Promise<string> {
        return this.diff.proposalText();
    }

    saveProposal(): Promise<void> {
        return this.diff.saveProposal();
    }

    acceptDiff(): Promise<void> {
        return this.diff.acceptDiff();
    }

    rejectDiff(): Promise<void> {
        return this.diff.rejectDiff();
    }

    /** Clicks into the last terminal of the bottom panel and waits until it has the keyboard. */
    async focusTerminal(): Promise<void> {
        await this.page.locator('.terminal-container').last().click();
        await until(() => this.terminalHasFocus(), 'the terminal to have the focus', 10000);
    }

    /**
     * Brings another browser tab to the front, so this window really loses the focus (as when the
     * user switches to another window), then comes back. Playwright keeps every page "focused"
     * unless its focus emulation is turned off, which this does for this page from now on.
     */
    async leaveWindowAndReturn(whileAway: () => Promise<unknown>): Promise<void> {
        const cdp = await this.page.context().newCDPSession(this.page);
        await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
        const other = await this.page.context().newPage();
        try {
            await other.bringToFront();
            await whileAway();
        } finally {
            await other.close();
            await this.page.bringToFront();
            await cdp.detach();
        }
    }

    /** File → Save All from the menu bar, as a user does. */
    async saveAllFromMenu(): Promise<void> {
        await this.page.locator('#theia-top-panel .lm-MenuBar-item', { hasText: 'File' }).click();
        await this.page.locator('.lm-Menu-item', { hasText: 'Save All' }).click();
    }

    /**
     * Changes the user's settings.json and waits until this window has applied the change: a
     * marker title goes into the same write, and Theia applies one file's changes together.
     */
    async changeSettings(sandbox: Sandbox, changes: Record<string, unknown>): Promise<void> {
        const marker = `settings ${++settingsChanges}`;
        updateTheiaSettings(sandbox, { ...changes, 'window.title': marker });
        await until(async () => (await this.page.title()).includes(marker), `the window to apply ${JSON.stringify(changes)}`, 20000);
    }

    /**
     * Saves a screenshot of the window (or of one element) as docs/images/<name>.png when
     * DOC_SCREENSHOTS_ENV is `1`, and returns its path. The pointer moves out of the way either way,
     * so a test runs the same whether or not it takes the picture.
     */
    async saveDocScreenshot(name: string, target?: Locator): Promise<string | undefined> {
        await this.page.mouse.move(1390, 890);
        if (process.env[DOC_SCREENSHOTS_ENV] !== '1') {
            return undefined;
        }
        fs.mkdirSync(DOC_IMAGES, { recursive: true });
        const file = path.join(DOC_IMAGES, `${name}.png`);
        await (target ?? this.page).screenshot({ path: file });
        return file;
    }

    /** Clicks the companion's status bar item and picks `label` from its menu. */
    async pickFromStatusMenu(label: string): Promise<void> {
        await this.page.locator(STATUS_ITEM).click();
        await this.pickQuickItem(label);
    }

    /** Picks the row of the open quick pick that shows `label`. */
    async pickQuickItem(label: string): Promise<void> {
        const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
        await row.waitFor({ state: 'visible', timeout: 10000 });
        await row.click();
    }

    setReviewPace(cli: string, pace: ReviewPaceLabel): Promise<void> {
        return this.review.setReviewPace(cli, pace);
    }

    async pendingCount(): Promise<number> {
        // "$(plug) CLI 1 $(diff) 2": sessions, then what waits (only when something does).
        return Number(/^CLI \d+\s+(\d+)$/.exec(await this.statusText())?.[1] ?? 0);
    }

    async pendingChanges(): Promise<{ waiting: string[]; applied: string[] }> {
        await this.runCommand('CLI Companion: Show Pending Changes');
        return this.review.listing();
    }

    acceptPending(name: string): Promise<void> {
        return this.review.acceptPending(name);
    }

    undoApplied(name: string): Promise<void> {
        return this.review.undoApplied(name);
    }

    async diffCount(): Promise<number> {
        return this.page.locator('#theia-main-content-panel .monaco-diff-editor').count();
    }

    /** The texts of the visible notifications. */
    async notifications(): Promise<string[]> {
        return this.page.locator('.theia-notification-message').allInnerTexts().catch(() => []);
    }

    async clipboardText(): Promise<string> {
        return this.page.evaluate(() => navigator.clipboard.readText());
    }

    async statusText(): Promise<string> {
        return (await this.page.locator(STATUS_ITEM).innerText()).trim();
    }

    async waitForStatus(pattern: RegExp, timeoutMs = 20000): Promise<string> {
        return until(async () => {
            const text = await this.page.locator(STATUS_ITEM).innerText().catch(() => '');
            return pattern.test(text.trim()) && text.trim();
        }, `the status bar to match ${pattern}`, timeoutMs);
    }

    /** The status item's tooltip, as the user sees it on hover. */
    async statusTooltip(): Promise<string> {
        await this.page.locator(STATUS_ITEM).hover();
        const hover = this.page.locator('.theia-hover');
        await hover.first().waitFor({ state: 'visible', timeout: 10000 });
        const text = await hover.first().innerText();
        await this.page.mouse.move(700, 300);
        return text;
    }
}
