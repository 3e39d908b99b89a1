import { expect } from 'chai';
import { execFileSync } from 'child_process';
import { TIMING_MARKS_VARIABLE } from './timing-marks';

/** Marks two points in a fresh process (the variable is read when the module loads) and prints what it takes, twice. */
function marksInProcess(enabled: boolean): { before: number; first: { name: string; at: number }[]; second: unknown[]; after: number } {
    const script = `const m = require(${JSON.stringify(require.resolve('./timing-marks'))});`
        + 'const before = performance.timeOrigin + performance.now(); m.timingMark("turn:a"); m.timingMark("turn:b");'
        + 'const first = m.takeTimingMarks(); const second = m.takeTimingMarks(); const after = performance.timeOrigin + performance.now();'
        + 'console.log(JSON.stringify({ before, first, second, after }));';
    const env = { PATH: process.env.PATH, ...(enabled ? { [TIMING_MARKS_VARIABLE]: '1' } : {}) };
    return JSON.parse(execFileSync(process.execPath, ['-e', script], { env }).toString());
}

describe('timing marks', () => {
    it('are recorded only when the variable is set: in order, at wall-clock times, taken once', () => {
        const { before, first, second, after } = marksInProcess(true);
        expect(first.map(mark => mark.name)).to.deep.equal(['turn:a', 'turn:b']);
        expect(first[0].at).to.be.within(before, first[1].at);
        expect(first[1].at).to.be.at.most(after);
        expect(second).to.deep.equal([]);
    });

    it('cost a user\'s backend nothing: none without the variable', () => {
        expect(marksInProcess(false).first).to.deep.equal([]);
    });
});
