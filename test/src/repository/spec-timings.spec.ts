import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createSandbox, Sandbox } from '../support/sandbox';
import { SpecTimings } from '../support/spec-timings';
import { REPO_ROOT } from '../hosts/theia-backend';

/** How scripts/test.sh reads mocha's summary: no line of the table may look like one of these. */
const SUMMARY_LINE = /^ +[0-9]+ (passing|failing|pending)/;

describe('Spec timings (the table after mocha\'s summary)', () => {
    it('adds up the top-level suites of each file, hooks included, and lists the files slowest first', () => {
        const timings = new SpecTimings();
        timings.suiteStarted('test/lib/a.spec.js', 1000);
        timings.testEnded('test/lib/a.spec.js', 'passed', 10);
        timings.testEnded('test/lib/a.spec.js', 'failed', 20);
        timings.suiteEnded('test/lib/a.spec.js', 1500);
        timings.suiteStarted('test/lib/a.spec.js', 1500);
        timings.testEnded('test/lib/a.spec.js', 'pending');
        timings.suiteEnded('test/lib/a.spec.js', 1700);
        timings.suiteStarted('test/lib/b.slow-spec.js', 1700);
        timings.testEnded('test/lib/b.slow-spec.js', 'passed', 3000);
        timings.suiteEnded('test/lib/b.slow-spec.js', 64_000);
        // an `it` at the top level of a file runs outside any of its suites
        timings.testEnded('test/lib/c.spec.js', 'passed', 40);

        expect(timings.slowestFirst()).to.deep.equal([
            { file: 'test/lib/b.slow-spec.js', ms: 62_300, tests: 1, failed: 0 },
            { file: 'test/lib/a.spec.js', ms: 700, tests: 2, failed: 1 },
            { file: 'test/lib/c.spec.js', ms: 40, tests: 1, failed: 0 }
        ]);
        expect(timings.table(63_100)).to.deep.equal([
            'Time per spec file, slowest first:',
            'time 62.3 s  1 test   test/lib/b.slow-spec.js',
            'time  0.7 s  2 tests  test/lib/a.spec.js (1 failed)',
            'time  0.0 s  1 test   test/lib/c.spec.js',
            'time 63.1 s  4 tests  total (1 failed)'
        ]);
    });

    it('counts a failed hook against its file and prints nothing when no file ran', () => {
        const timings = new SpecTimings();
        expect(timings.table(5)).to.deep.equal([]);
        timings.suiteStarted('x.spec.js', 0);
        timings.hookFailed('x.spec.js');
        timings.suiteEnded('x.spec.js', 2000);
        expect(timings.table(2100)).to.deep.equal([
            'Time per spec file, slowest first:',
            'time 2.0 s  0 tests  x.spec.js (1 failed)',
            'time 2.1 s  0 tests  total (1 failed)'
        ]);
    });

    it('never prints a line that scripts/test.sh would read as mocha\'s summary, whatever the numbers and names', () => {
        const timings = new SpecTimings();
        for (const [i, name] of ['1 passing', ' 2 failing', '3 pending.spec.js'].entries()) {
            timings.suiteStarted(name, 0);
            for (let t = 0; t < 10 ** i; t++) {
                timings.testEnded(name, 'passed', 1);
            }
            timings.suiteEnded(name, 10 ** (i + 3));
        }
        const lines = timings.table(123_456_789);
        expect(lines).to.have.length(5);
        expect(lines.filter(line => SUMMARY_LINE.test(line))).to.deep.equal([]);
    });

    it('repeats each failure last, its title, file and the first lines of its message, shortened', () => {
        const timings = new SpecTimings();
        expect(timings.failureLines()).to.deep.equal([]);
        timings.failed('Suite does a thing', 'test/lib/a.spec.js', 'expected 1 to equal 2\n\x1b[2msecond line\x1b[22m');
        timings.failed('Suite "before all" hook', 'test/lib/b.spec.js', Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n'));
        timings.failed('Suite long', 'test/lib/c.spec.js', 'x'.repeat(2000));
        const lines = timings.failureLines();
        expect(lines.slice(0, 4)).to.deep.equal([
            'Failed (3; mocha\'s full report of each is above):',
            'failed 1: Suite does a thing [test/lib/a.spec.js]',
            '    | expected 1 to equal 2',
            '    | second line'
        ]);
        expect(lines.filter(line => line.startsWith('    | line '))).to.have.length(12);
        expect(lines[lines.length - 1]).to.equal(`    | ${'x'.repeat(1500)}…`);
        expect(lines.filter(line => SUMMARY_LINE.test(line))).to.deep.equal([]);
    });

    describe('in a real mocha run with configs/mocharc.yml', function () {
        this.timeout(60_000);
        let sandbox: Sandbox;
        beforeEach(() => sandbox = createSandbox());
        afterEach(() => sandbox.dispose());

        it('prints each file\'s time and tests after the summary, which scripts/test.sh still reads', () => {
            const slow = path.join(sandbox.tmp, 'slow.fixture.js');
            const quick = path.join(sandbox.tmp, 'quick.fixture.js');
            fs.writeFileSync(slow, [
                'describe("slow", () => {',
                '    before(done => setTimeout(done, 400));',
                '    it("one", () => {});',
                '    describe("inner", () => { it("two", () => {}); });',
                '});'
            ].join('\n'));
            fs.writeFileSync(quick, [
                'describe("quick", () => {',
                '    it("passes", () => {});',
                '    it("fails", () => { throw new Error("as planned"); });',
                '    it.skip("skipped", () => {});',
                '});'
            ].join('\n'));
            const run = spawnSync(process.execPath, [require.resolve('mocha/bin/mocha.js'), '--config', 'configs/mocharc.yml', slow, quick], {
                cwd: REPO_ROOT, env: sandbox.env, encoding: 'utf8', timeout: 50_000
            });
            expect(run.status, run.stderr).to.equal(1);
            const lines = run.stdout.split('\n');
            // what scripts/test.sh greps, found once each
            expect(lines.filter(line => /^ +[0-9]+ passing/.test(line)).map(line => line.trim().replace(/ \(.*\)$/, ''))).to.deep.equal(['3 passing']);
            expect(lines.filter(line => /^ +[0-9]+ failing/.test(line)).map(line => line.trim())).to.deep.equal(['1 failing']);
            expect(lines.filter(line => /^ +[0-9]+ pending/.test(line)).map(line => line.trim())).to.deep.equal(['1 pending']);

            const title = lines.indexOf('Time per spec file, slowest first:');
            expect(title, run.stdout).to.be.greaterThan(lines.findIndex(line => line.includes('as planned')));
            const table = lines.slice(title + 1, title + 4);
            const relative = (file: string): string => path.relative(REPO_ROOT, file);
            expect(table.map(line => line.replace(/ +[0-9.]+ s/, ' <s>')), run.stdout).to.deep.equal([
                `time <s>  2 tests  ${relative(slow)}`,
                `time <s>  2 tests  ${relative(quick)} (1 failed)`,
                'time <s>  4 tests  total (1 failed)'
            ]);
            // and the failure again, last, with its message: a log's tail says why
            expect(lines.slice(title + 4).filter(line => line), run.stdout).to.deep.equal([
                'Failed (1; mocha\'s full report of each is above):',
                `failed 1: quick fails [${relative(quick)}]`,
                '    | as planned'
            ]);
            const seconds = table.map(line => Number(/([0-9.]+) s/.exec(line)![1]));
            expect(seconds[0], 'the slow file\'s before hook counts').to.be.at.least(0.4);
            expect(seconds[2]).to.be.at.least(seconds[0]);
        });
    });
});
