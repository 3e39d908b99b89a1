import * as fs from 'fs';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { until } from '../support/processes';

/**
 * The terminal of a browser IDE (xterm.js in Theia and in VS Code), driven by the keyboard as a user
 * does: commands are typed into the focused terminal, and a marker file they write says they ran.
 */
export class BrowserTerminal {
    constructor(
        protected readonly page: Page,
        protected readonly scratchDir: string,
        /** The terminals' input elements, the newest last. */
        protected readonly inputSelector: string,
        protected readonly describeForFailure: (what: string) => Promise<string>
    ) { }

    hasFocus(): Promise<boolean> {
        return this.page.evaluate(() => !!document.activeElement?.classList.contains('xterm-helper-textarea'));
    }

    /** Types a command into the focused terminal (the newest, if none has the focus) and waits until the shell has run it. */
    async run(command: string, timeoutMs = 30000): Promise<void> {
        const marker = path.join(this.scratchDir, `done-${Date.now()}-${Math.random().toString(36).slice(2)}`);
        if (!await this.hasFocus()) {
            await this.page.locator(this.inputSelector).last().focus();
        }
        // Keys typed before the shell's pty is attached can be lost; the commands used here are
        // idempotent, so a command whose marker does not appear is typed again.
        const attempts = 3;
        for (let attempt = 1; ; attempt++) {
            await this.page.keyboard.type(`${command}; echo $? > '${marker}'\n`);
            try {
                await until(() => fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() !== '', `the terminal to run: ${command}`, timeoutMs / attempts);
                return;
            } catch (error) {
                if (attempt === attempts) {
                    throw new Error(`${(error as Error).message}; ${await this.describeForFailure('terminal')}`);
                }
                if (!await this.hasFocus()) {
                    await this.page.locator(this.inputSelector).last().focus();
                }
                // Part of the line may have arrived (an open quote leaves the shell waiting): abandon it.
                await this.page.keyboard.press('Control+c');
            }
        }
    }

    /** The environment of the focused terminal's shell, as a CLI started there would see it. */
    async environment(cwd?: string): Promise<Record<string, string>> {
        const file = path.join(this.scratchDir, `env-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
        await this.run(`${cwd ? `cd '${cwd}' && ` : ''}env -0 > '${file}'`);
        const env: Record<string, string> = {};
        for (const entry of fs.readFileSync(file, 'utf8').split('\0')) {
            const eq = entry.indexOf('=');
            if (eq > 0) {
                env[entry.slice(0, eq)] = entry.slice(eq + 1);
            }
        }
        return env;
    }
}
