import { expect } from 'chai';
import { FRONTEND_TIMING_MARKS_FLAG, frontendTimingMark } from './frontend-timing-mark';

describe('frontendTimingMark', () => {
    const flags = globalThis as Record<string, unknown>;
    const marks = () => performance.getEntriesByName('cli-companion:spec:point', 'mark');
    afterEach(() => {
        delete flags[FRONTEND_TIMING_MARKS_FLAG];
        performance.clearMarks('cli-companion:spec:point');
    });

    it('records nothing on a page the bench did not flag', () => {
        frontendTimingMark('spec:point');
        flags[FRONTEND_TIMING_MARKS_FLAG] = 'yes';
        frontendTimingMark('spec:point');
        expect(marks()).to.have.length(0);
    });

    it('records a performance mark, prefixed, on a flagged page', () => {
        flags[FRONTEND_TIMING_MARKS_FLAG] = true;
        frontendTimingMark('spec:point');
        expect(marks()).to.have.length(1);
    });
});
