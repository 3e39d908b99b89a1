import type { Disposable } from 'vscode-jsonrpc';
import { WindowLogger } from '../window-logger';

/** Why a window endpoint turned a request or connection away; never quotes a secret. */
export interface Refusal {
    readonly status: number;
    /** A short fixed name of the check that failed ("Origin", "invalid token"); refusals are counted by it. */
    readonly kind: string;
    readonly reason: string;
}

/** How the log names what is refused: `{ one: 'a request', many: 'requests' }`. */
export interface RefusedSubject {
    readonly one: string;
    readonly many: string;
}

export const DEFAULT_REFUSAL_SUMMARY_MS = 60_000;

interface KindState {
    /** When the last line about this kind was logged. */
    loggedAt: number;
    /** Refusals since then, not logged yet. */
    counted: number;
    timer?: NodeJS.Timeout;
}

/**
 * Logs refusals without letting their number decide how much is logged: a web page can fetch
 * 127.0.0.1:<port> in a loop, and every line would reach the backend log and the window's output
 * channel. The first refusal of a kind is logged in full; further ones are counted and said in at
 * most one line per interval ("N more requests refused (403 Origin) in the last 60 s"). A quiet
 * interval starts over. Disposing says what is still counted and stops the timers.
 */
export class RefusalLog implements Disposable {
    /** Keyed by status and kind, both from the endpoint's own fixed set. */
    protected readonly kinds = new Map<string, KindState>();
    protected disposed = false;

    constructor(
        protected readonly logger: WindowLogger,
        protected readonly subject: RefusedSubject,
        protected readonly intervalMs = DEFAULT_REFUSAL_SUMMARY_MS
    ) { }

    refused({ status, kind, reason }: Refusal): void {
        if (this.disposed) {
            return;
        }
        const key = `${status} ${kind}`;
        const now = Date.now();
        const state = this.kinds.get(key);
        if (!state || (!state.timer && now - state.loggedAt >= this.intervalMs)) {
            this.kinds.set(key, { loggedAt: now, counted: 0 });
            this.logger.warn(`Refused ${this.subject.one} (${status}): ${reason}`);
            return;
        }
        state.counted++;
        if (!state.timer) {
            state.timer = setTimeout(() => this.summarise(key, state), state.loggedAt + this.intervalMs - now);
            state.timer.unref?.();
        }
    }

    protected summarise(key: string, state: KindState): void {
        clearTimeout(state.timer);
        state.timer = undefined;
        if (state.counted) {
            const now = Date.now();
            const seconds = Math.max(1, Math.round((now - state.loggedAt) / 1000));
            this.logger.warn(`${state.counted} more ${this.subject.many} refused (${key}) in the last ${seconds} s`);
            state.loggedAt = now;
            state.counted = 0;
        }
    }

    dispose(): void {
        if (!this.disposed) {
            this.kinds.forEach((state, key) => this.summarise(key, state));
            this.disposed = true;
        }
    }
}
