import { stopTrackedProcesses } from './processes';

/**
 * Mocha root hooks (loaded with --require): whatever a failed test left running is stopped by PID
 * at the end of the run, so a failure can never leave a backend, browser or CLI behind, nor keep the
 * runner waiting on it.
 */
export const mochaHooks = {
    afterAll(): void {
        const stopped = stopTrackedProcesses();
        if (stopped) {
            console.warn(`Stopped ${stopped} process(es) that tests left running`);
        }
    }
};
