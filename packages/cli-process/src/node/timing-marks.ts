import { performance } from 'perf_hooks';

/** Set (to anything) in a backend's environment to record timing marks: the benchmarks do; a user's backend keeps none. */
export const TIMING_MARKS_VARIABLE = 'THEIA_CLI_COMPANION_TIMING_MARKS';
const PREFIX = 'cli-companion:';
/** Never more than this many are kept: a bench reads and clears them between samples. */
const MAX_MARKS = 10_000;

let recorded = 0;
const enabled = !!process.env[TIMING_MARKS_VARIABLE];

/**
 * Marks a point on a hot path (a chat turn, a context update) for the benchmarks to split their figures where
 * our code runs: `performance.mark('cli-companion:<name>')`, only when {@link TIMING_MARKS_VARIABLE} is set.
 */
export function timingMark(name: string): void {
    if (enabled && recorded < MAX_MARKS) {
        recorded++;
        performance.mark(PREFIX + name);
    }
}

/**
 * The marks recorded since the last call, oldest first, each at its wall-clock time (ms since the epoch, like
 * `performance.timeOrigin + performance.now()` in any process of this machine); clears them.
 */
export function takeTimingMarks(): { name: string; at: number }[] {
    const marks = performance.getEntriesByType('mark').filter(entry => entry.name.startsWith(PREFIX))
        .map(entry => ({ name: entry.name.slice(PREFIX.length), at: performance.timeOrigin + entry.startTime }));
    marks.forEach(mark => performance.clearMarks(PREFIX + mark.name));
    recorded = 0;
    return marks;
}
