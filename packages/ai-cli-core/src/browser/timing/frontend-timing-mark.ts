/** Set to `true` on the page's `window` (the benchmarks do, before Theia starts) to record timing marks in the frontend. */
export const FRONTEND_TIMING_MARKS_FLAG = 'cliCompanionTimingMarks';

/**
 * Marks a point on a hot path of the frontend (a diff opening) for the benchmarks, like cli-process's `timingMark`
 * in the backend: `performance.mark('cli-companion:<name>')`, only on a page the bench flagged; a user's page keeps none.
 */
export function frontendTimingMark(name: string): void {
    if ((globalThis as Record<string, unknown>)[FRONTEND_TIMING_MARKS_FLAG] === true) {
        performance.mark(`cli-companion:${name}`);
    }
}
