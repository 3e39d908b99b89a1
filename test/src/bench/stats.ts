/** Median and 95th percentile of a set of samples (nearest-rank). */
export interface Summary {
    readonly n: number;
    readonly median: number;
    readonly p95: number;
}

export function summarize(samples: readonly number[]): Summary {
    if (!samples.length) {
        throw new Error('no samples to summarize');
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const rank = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
    return { n: sorted.length, median: rank(0.5), p95: rank(0.95) };
}

/** One row of the benchmark table: a figure and its baseline, measured in the same run. */
export interface Figure {
    readonly id: string;
    readonly title: string;
    readonly unit: string;
    readonly measured: Summary;
    readonly baselineName: string;
    readonly baseline: Summary;
    /** The goal in words, and whether this run met it. */
    readonly goal?: string;
    readonly goalMet?: boolean;
    /** Further figures of the same measurement (counts, derived values). */
    readonly notes?: Readonly<Record<string, number | string>>;
}

/** Wall-clock time in ms with sub-millisecond precision, comparable across processes of one machine. */
export function now(): number {
    return performance.timeOrigin + performance.now();
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

export function sleep(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
}
