import debounce = require('lodash.debounce');

/** Continuous activity still yields an update at least this many debounce periods apart (and never less than 250 ms). */
export const MAX_WAIT_FACTOR = 5;
export const MIN_MAX_WAIT_MS = 250;

export interface ContextUpdateScheduler {
    (): void;
    cancel(): void;
    flush(): void;
}

/**
 * Calls `send` once things have been still for `waitMs`, and at least every
 * `max(5 × waitMs, 250 ms)` while they never are: lodash's `debounce` with `maxWait` gives both,
 * so typing or moving the cursor without pause cannot starve the CLIs of updates.
 */
export function createContextUpdateScheduler(send: () => void, waitMs: number): ContextUpdateScheduler {
    const wait = Math.max(0, waitMs);
    return debounce(send, wait, { maxWait: Math.max(wait * MAX_WAIT_FACTOR, MIN_MAX_WAIT_MS) });
}
