import * as Mocha from 'mocha';
import * as path from 'path';
import { SpecTimings } from './spec-timings';

const { EVENT_RUN_BEGIN, EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_END, EVENT_TEST_FAIL } = Mocha.Runner.constants;

/**
 * Mocha's spec reporter, then (after its summary) the time each spec file took, slowest first, and
 * the total: configs/mocharc.yml names it, so every run of the test command says where its time goes.
 * A file's time is that of its top-level suites, their `before`/`after` hooks included. What failed is
 * repeated last, shortened, so that the tail of a long log says why.
 */
class SpecTimingReporter extends Mocha.reporters.Spec {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
        super(runner, options);
        const timings = new SpecTimings();
        const label = (file: string): string => path.relative(process.cwd(), file) || file;
        let started = Date.now();
        runner.once(EVENT_RUN_BEGIN, () => started = Date.now());
        runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
            if (suite.file && suite.parent?.root) {
                timings.suiteStarted(label(suite.file), Date.now());
            }
        });
        runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
            if (suite.file && suite.parent?.root) {
                timings.suiteEnded(label(suite.file), Date.now());
            }
        });
        runner.on(EVENT_TEST_END, (test: Mocha.Test) => {
            if (test.file) {
                timings.testEnded(label(test.file), test.isPending() ? 'pending' : test.state, test.duration);
            }
        });
        runner.on(EVENT_TEST_FAIL, (runnable: Mocha.Runnable, error: unknown) => {
            if (runnable instanceof Mocha.Hook && runnable.file) {
                timings.hookFailed(label(runnable.file));
            }
            timings.failed(runnable.fullTitle(), runnable.file ? label(runnable.file) : '?', error instanceof Error ? error.message : String(error));
        });
        // registered after the spec reporter's own listener: the table comes after mocha's summary
        runner.once(EVENT_RUN_END, () => {
            for (const line of [...timings.table(Date.now() - started), ...timings.failureLines()]) {
                process.stdout.write(`${line}\n`);
            }
        });
    }
}

// mocha loads a reporter by path and takes the module itself as its constructor
export = SpecTimingReporter;
