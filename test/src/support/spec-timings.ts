/** How much of a failure's message is repeated after the table. */
const MESSAGE_CHARS = 1500;
const MESSAGE_LINES = 12;

/** What one spec file took: its top-level suites (hooks included) and the tests they ran. */
export interface SpecFileTiming {
    readonly file: string;
    readonly ms: number;
    readonly tests: number;
    readonly failed: number;
}

/**
 * The time each spec file takes, from the runner's events, and the table printed after mocha's
 * summary. Pure (the caller passes the clock's readings), so the reporter stays a thin adapter.
 *
 * The table's lines never start with spaces and a count followed by "passing", "failing" or
 * "pending", which is how scripts/test.sh reads mocha's summary.
 */
export class SpecTimings {
    protected readonly files = new Map<string, { ms: number; tests: number; failed: number }>();
    protected readonly failures: { title: string; file: string; message: string }[] = [];
    protected open: { file: string; since: number } | undefined;

    /** A top-level suite of `file` starts (before its `before` hooks). */
    suiteStarted(file: string, at: number): void {
        this.open = { file, since: at };
    }

    /** The suite started last ends (after its `after` hooks); its time goes to its file. */
    suiteEnded(file: string, at: number): void {
        if (this.open?.file === file) {
            this.entry(file).ms += Math.max(0, at - this.open.since);
        }
        this.open = undefined;
    }

    /** A test of `file` ran (or was skipped: then it is not counted). */
    testEnded(file: string, state: 'passed' | 'failed' | 'pending' | undefined, ms?: number): void {
        if (state === 'pending') {
            return;
        }
        const entry = this.entry(file);
        entry.tests++;
        if (state === 'failed') {
            entry.failed++;
        }
        if (ms !== undefined && this.open?.file !== file) {
            // a test outside any suite of its file (an `it` at the top level)
            entry.ms += ms;
        }
    }

    /** A hook of `file` failed: the file counts one failure more. */
    hookFailed(file: string): void {
        this.entry(file).failed++;
    }

    /** What failed, in full, to repeat after the table: a CI log's tail then says why as well as where. */
    failed(title: string, file: string, message: string): void {
        this.failures.push({ title, file, message: message.replace(/\x1b\[[0-9;]*m/g, '') });
    }

    /** One block per failure: its title and file, then the first lines of its message, shortened. */
    failureLines(): string[] {
        if (this.failures.length === 0) {
            return [];
        }
        const lines = [`Failed (${this.failures.length}; mocha's full report of each is above):`];
        for (const [i, failure] of this.failures.entries()) {
            lines.push(`failed ${i + 1}: ${failure.title} [${failure.file}]`);
            const message = failure.message.length > MESSAGE_CHARS ? `${failure.message.slice(0, MESSAGE_CHARS)}…` : failure.message;
            lines.push(...message.split('\n').slice(0, MESSAGE_LINES).map(line => `    | ${line}`));
        }
        return lines;
    }

    /** The files, slowest first (then by name, so that the order is stable). */
    slowestFirst(): SpecFileTiming[] {
        return [...this.files].map(([file, entry]) => ({ file, ...entry }))
            .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file));
    }

    /** The table: a title, one line per file (slowest first) and the total of the whole run. */
    table(totalMs: number): string[] {
        const rows = this.slowestFirst();
        if (rows.length === 0) {
            return [];
        }
        const tests = rows.reduce((sum, row) => sum + row.tests, 0);
        const failed = rows.reduce((sum, row) => sum + row.failed, 0);
        const cells = [...rows, { file: 'total', ms: totalMs, tests, failed }]
            .map(row => ({ seconds: `${(row.ms / 1000).toFixed(1)} s`, tests: String(row.tests), row }));
        const secondsWidth = Math.max(...cells.map(cell => cell.seconds.length));
        const testsWidth = Math.max(...cells.map(cell => cell.tests.length));
        const line = ({ seconds, tests, row }: typeof cells[number]): string => `time ${seconds.padStart(secondsWidth)}  ${tests.padStart(testsWidth)} `
            + `${row.tests === 1 ? 'test ' : 'tests'}  ${row.file}${row.failed ? ` (${row.failed} failed)` : ''}`;
        return ['Time per spec file, slowest first:', ...cells.map(line)];
    }

    protected entry(file: string): { ms: number; tests: number; failed: number } {
        let entry = this.files.get(file);
        if (!entry) {
            entry = { ms: 0, tests: 0, failed: 0 };
            this.files.set(file, entry);
        }
        return entry;
    }
}
