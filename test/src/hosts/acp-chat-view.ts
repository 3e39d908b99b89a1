import { Locator } from 'playwright-core';
import { TheiaBackend } from './theia-backend';
import { TheiaWindow } from './theia-window';

const CHAT = '#chat-view-widget';
const RESPONSES = `${CHAT} .theia-ChatNode[aria-label^="Response from"]`;

/** Theia AI's chat view of one window, driven as a user does: type, Enter, Stop. */
export class AcpChat {
    /** When the last prompt was sent (the Enter), in ms since the epoch with sub-millisecond precision. */
    lastSentAt = 0;

    constructor(protected readonly window: TheiaWindow, protected readonly backend: TheiaBackend) { }

    protected get page(): TheiaWindow['page'] {
        return this.window.page;
    }

    protected async open(): Promise<Locator> {
        const input = this.page.locator(`${CHAT} .theia-ChatInput-Editor`);
        if (!await input.isVisible()) {
            await this.page.locator('#theia-main-content-panel').click({ position: { x: 300, y: 200 } });
            await this.page.keyboard.press('Control+Alt+i');
        }
        await input.waitFor({ state: 'visible', timeout: 20000 });
        return input;
    }

    /**
     * Starts a new chat session (the view's Home action), so a test counts its own responses: the
     * chat tree renders only the nodes in view.
     */
    async newChat(): Promise<void> {
        await this.open();
        if (!await this.page.locator(`${CHAT} .theia-ChatNode`).count()) {
            return; // Nothing asked yet: this is a new chat.
        }
        await this.page.locator('.theia-sidepanel-toolbar .codicon-home, .lm-TabBar-toolbar .codicon-home').first().click();
        await this.page.locator(`${CHAT} .theia-ChatNode`).first().waitFor({ state: 'detached', timeout: 10000 });
    }

    /**
     * Sends a prompt (opening the chat view if needed); resolves with the response node it creates. The tree
     * renders only the rows in view, so neither "the n-th response rendered" nor their count names a response
     * for good (a tall answer scrolls earlier ones away): a row's index in the whole list (react-virtuoso's
     * `data-index`) does, and the new response is the one whose row comes after every row there was.
     */
    async send(prompt: string, mentionsAgent = false): Promise<Locator> {
        const input = await this.open();
        const lastRow = () => this.page.evaluate(chat => Math.max(-1, ...[...document.querySelectorAll(`${chat} [data-index]`)]
            .map(row => Number(row.getAttribute('data-index')))), CHAT);
        const before = await lastRow();
        // Focus rather than click: a "Chat request failed" toast may lie over the input.
        await input.locator('.native-edit-context, textarea').first().focus();
        await this.page.keyboard.type(prompt);
        if (mentionsAgent) {
            // The @/# completion list may open only after a check that it is closed, and an Enter in the input
            // would then pick from it instead of sending. Enter on the focused Send button is never taken by it
            // (and, unlike a click, no notification toast lying over the button takes it either).
            const sendButton = this.page.locator(`${CHAT} .theia-ChatInputOptions-right [role="button"]:has(.codicon-send)`);
            await sendButton.focus();
            this.lastSentAt = performance.timeOrigin + performance.now();
            await sendButton.press('Enter');
        } else {
            this.lastSentAt = performance.timeOrigin + performance.now();
            await this.page.keyboard.press('Enter');
        }
        const row = await this.page.waitForFunction(({ responses, after }) => {
            const rows = [...document.querySelectorAll(responses)].map(node => Number(node.closest('[data-index]')?.getAttribute('data-index') ?? NaN));
            if (rows.some(Number.isNaN)) {
                throw new Error('the chat tree no longer marks its rows with data-index: find another stable handle for a response');
            }
            return rows.find(index => index > after) ?? false;
        }, { responses: RESPONSES, after: before }, { timeout: 20000, polling: 50 });
        return this.page.locator(`${CHAT} [data-index="${await row.jsonValue()}"] .theia-ChatNode[aria-label^="Response from"]`);
    }

    /** Types a message and presses Enter while a turn runs: the chat queues it (no response starts). */
    async sendWhileRunning(prompt: string): Promise<void> {
        const input = await this.open();
        await input.locator('.native-edit-context, textarea').first().focus();
        await this.page.keyboard.type(prompt);
        await this.page.keyboard.press('Enter');
    }

    /** The texts of the messages waiting for the running turn, in order. */
    queued(): Promise<string[]> {
        return this.page.locator(`${CHAT} .acp-queued-message .acp-queued-text`).allInnerTexts();
    }

    /**
     * Waits until the response is complete: its toolbar is there and its "Generating" indicator gone
     * (Theia 1.72 shows the toolbar while the response is still being generated).
     */
    async finished(response: Locator, timeoutMs = 60000): Promise<void> {
        const deadline = Date.now() + timeoutMs;
        try {
            await response.locator('.theia-ChatNodeToolbar').waitFor({ state: 'attached', timeout: timeoutMs });
            await response.locator('.theia-ChatContentInProgress').waitFor({ state: 'detached', timeout: Math.max(1, deadline - Date.now()) });
        } catch (error) {
            throw new Error(`${(error as Error).message}; ${await this.window.describeForFailure('acp-chat')}; backend log:\n${this.backend.log.slice(-3000)}`);
        }
    }

    text(response: Locator): Promise<string> {
        return response.locator('.theia-ResponseNode').innerText();
    }

    /** The chat's Stop button, shown while a request runs. */
    async stop(): Promise<void> {
        await this.page.locator(`${CHAT} .codicon-stop-circle`).first().click();
    }
}
