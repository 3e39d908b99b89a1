import { BENCH_FLOOR_GLOBAL } from '@theia-cli-companion/bench-floor/lib/common';
import { TheiaWindow } from '../hosts/theia-window';

/** A timing mark of our backend (cli-process's `timingMark`) or frontend (ai-cli-core's `frontendTimingMark`), at its wall-clock time. */
export interface TimingMark {
    readonly name: string;
    readonly at: number;
}

/**
 * The backend's timing marks since the last call, cleared (the bench floor hands them to the page). The bench
 * starts the backend with `THEIA_CLI_COMPANION_TIMING_MARKS` set, else there are none.
 */
export function takeBackendMarks(window: TheiaWindow): Promise<TimingMark[]> {
    return window.page.evaluate(name => (window as unknown as Record<string, { marks(): Promise<TimingMark[]> }>)[name].marks(), BENCH_FLOOR_GLOBAL);
}

/** The page's timing marks (ai-cli-core's `frontendTimingMark`, recorded in a window opened with `stampRpcFrames`) since the last call, cleared. */
export function takePageMarks(window: TheiaWindow): Promise<TimingMark[]> {
    return window.page.evaluate(() => {
        const marks = performance.getEntriesByType('mark').filter(mark => mark.name.startsWith('cli-companion:'))
            .map(mark => ({ name: mark.name.slice('cli-companion:'.length), at: performance.timeOrigin + mark.startTime }));
        marks.forEach(mark => performance.clearMarks(`cli-companion:${mark.name}`));
        return marks;
    });
}

/** When the first mark named `name` at or after `after` was made; throws naming it when there is none (the figure would be wrong). */
export function markAt(marks: readonly TimingMark[], name: string, after = -Infinity): number {
    const found = marks.find(mark => mark.name === name && mark.at >= after);
    if (!found) {
        const since = after > -Infinity ? ` after ${new Date(after).toISOString()}` : '';
        throw new Error(`no timing mark ${name}${since}: got ${marks.map(mark => mark.name).join(', ') || 'none'}`);
    }
    return found.at;
}
