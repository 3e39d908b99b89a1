import { Emitter, Event } from 'vscode-jsonrpc';
import { CompanionEvent } from '../common/window-protocol';
import { CompanionLogger } from './companion-logger';

const DEFAULT_CAPACITY = 200;

/**
 * The logger of one window's companion: every message goes to the backend log and into a bounded
 * history that the window shows in its "CLI Companion" output channel and diagnostic report.
 * Callers compose messages from names, paths and reasons only, never tokens or file contents.
 */
export class WindowEventLog implements CompanionLogger {
    protected readonly events: CompanionEvent[] = [];
    protected readonly onDidLogEmitter = new Emitter<CompanionEvent>();
    readonly onDidLog: Event<CompanionEvent> = this.onDidLogEmitter.event;

    constructor(protected readonly backendLogger: CompanionLogger, protected readonly capacity = DEFAULT_CAPACITY) { }

    get recent(): CompanionEvent[] {
        return [...this.events];
    }

    debug(message: string): void {
        this.backendLogger.debug(message);
    }

    info(message: string): void {
        this.backendLogger.info(message);
        this.record('info', message);
    }

    warn(message: string): void {
        this.backendLogger.warn(message);
        this.record('warn', message);
    }

    error(message: string): void {
        this.backendLogger.error(message);
        this.record('error', message);
    }

    dispose(): void {
        this.onDidLogEmitter.dispose();
    }

    protected record(level: CompanionEvent['level'], message: string): void {
        const event: CompanionEvent = { time: Date.now(), level, message };
        this.events.push(event);
        if (this.events.length > this.capacity) {
            this.events.splice(0, this.events.length - this.capacity);
        }
        this.onDidLogEmitter.fire(event);
    }
}
