import { injectable } from '@theia/core/shared/inversify';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
/** The frame of Theia's signal handler in the stack of its `process.exit(1)`. */
const THEIA_GRACEFUL_SHUTDOWN = /\bgracefulShutdown\b/;

/**
 * A backend asked to stop (SIGTERM, as `kill`, systemd, docker and Kubernetes stop it; SIGINT, as
 * Ctrl+C) that stopped exits with 0, not 1. Theia's `BackendApplication.gracefulShutdown` (1.74)
 * ends every such stop with `process.exit(1)`, whether its cleanup went well or not (a failure there
 * is only logged), so a supervisor read every ordinary stop as a crash (Theia before 1.74 exited 0).
 *
 * Only that exit is changed: code 1, after a stop signal, from inside `gracefulShutdown`; any other
 * exit keeps its code. Listens to the signals only where Theia does, so a process that would die of
 * the signal by default still does.
 */
@injectable()
export class CleanSignalExit implements BackendApplicationContribution {
    protected stopSignal?: NodeJS.Signals;

    initialize(): void {
        for (const signal of STOP_SIGNALS) {
            if (process.listenerCount(signal) > 0) {
                process.once(signal, () => this.stopSignal ??= signal);
            }
        }
        process.on('exit', code => {
            // In an 'exit' listener, process.exitCode is still what the process exits with.
            if (this.stopSignal && code === 1 && THEIA_GRACEFUL_SHUTDOWN.test(new Error().stack ?? '')) {
                process.exitCode = 0;
            }
        });
    }
}
