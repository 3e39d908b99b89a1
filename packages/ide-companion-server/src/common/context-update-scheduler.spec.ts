import { expect } from 'chai';
import { createContextUpdateScheduler } from './context-update-scheduler';

describe('createContextUpdateScheduler', () => {
    it('sends once after a burst settles', async () => {
        let sends = 0;
        const schedule = createContextUpdateScheduler(() => sends++, 50);
        for (let i = 0; i < 10; i++) {
            schedule();
        }
        expect(sends).to.equal(0);
        await new Promise(resolve => setTimeout(resolve, 150));
        expect(sends).to.equal(1);
    });

    it('is never starved by activity that does not stop (an update at least every 250 ms)', async () => {
        let sends = 0;
        const schedule = createContextUpdateScheduler(() => sends++, 50);
        const started = Date.now();
        while (Date.now() - started < 1200) {
            schedule();
            await new Promise(resolve => setTimeout(resolve, 10));
        }
        // 1200 ms of uninterrupted events with a 250 ms bound: at least 4 updates nominally; 3 leaves room for a stalled event loop.
        expect(sends).to.be.at.least(3);
        schedule.cancel();
    });
});
