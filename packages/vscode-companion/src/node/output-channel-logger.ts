import type * as vscode from 'vscode';
import type { WindowLogger } from '@theia-cli-companion/ide-companion-server/lib/node';

/** The window's companion server logs to the extension's output channel (Output ▸ AI CLI Companion). */
export class OutputChannelLogger implements WindowLogger {
    constructor(protected readonly channel: vscode.LogOutputChannel) { }

    debug(message: string): void {
        this.channel.debug(message);
    }

    info(message: string): void {
        this.channel.info(message);
    }

    warn(message: string): void {
        this.channel.warn(message);
    }

    error(message: string): void {
        this.channel.error(message);
    }
}
