import { Emitter, Event } from 'vscode-jsonrpc';
import { WindowEvent } from '../common/window-protocol';
import { WindowLogger } from './window-logger';

const DEFAULT_CAPACITY = 200;

/**
 * The logger of one window's companion: every message goes to the backend log and into a bounded
 * history that the window shows in its "CLI Companion" output channel and diagnostic report.
 * Callers compose messages from names, paths and reasons only, never tokens or file contents.
 */
export class WindowEventLog implements WindowLogger {
    protected readonly events: WindowEvent[] = [];
    protected readonly onDidLogEmitter = new Emitter<WindowEvent>();
    readonly onDidLog: Event<WindowEvent> = this.onDidLogEmitter.event;

    constructor(protected readonly backendLogger: WindowLogger, protected readonly capacity = DEFAULT_CAPACITY) { }

    get recent(): WindowEvent[] {
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

    protected record(level: WindowEvent['level'], message: string): void {
        const event: WindowEvent = { time: Date.now(), level, message };
        this.events.push(event);
        if (this.events.length > this.capacity) {
            this.events.splice(0, this.events.length - this.capacity);
        }
        this.onDidLogEmitter.fire(event);
    }
}
