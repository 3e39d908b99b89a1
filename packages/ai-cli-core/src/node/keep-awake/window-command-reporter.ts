import { injectable } from '@theia/core/shared/inversify';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { KeepAwakeClient, KeepAwakeState } from '../../common/keep-awake-protocol';
import { ActivityReport, WorkspaceActivityReporter } from './workspace-activity-reporter';

/** How long a window may take to run its commands before the report goes on without it. */
const WINDOW_TIMEOUT_MS = 10_000;

/**
 * Reports activity through the open windows: each runs the activity commands the platform's extension
 * registered in it (Theia Cloud's monitor) and the one the user's settings name. Every window runs
 * them, since a platform may listen in one window only. With no window open, it reaches nothing.
 */
@injectable()
export class WindowCommandReporter implements WorkspaceActivityReporter {
    protected readonly windows = new Set<KeepAwakeClient>();

    add(window: KeepAwakeClient): void {
        this.windows.add(window);
    }

    delete(window: KeepAwakeClient): void {
        this.windows.delete(window);
    }

    available(): readonly string[] {
        return [];
    }

    async report(reason: string): Promise<ActivityReport> {
        const answers = await Promise.all([...this.windows].map(window => withTimeout(window.reportActivity(reason)).then(
            (mechanisms): ActivityReport => ({ mechanisms }),
            (error): ActivityReport => ({ mechanisms: [], problem: `a window could not run its activity commands: ${describeError(error)}` }))));
        const problem = answers.find(answer => answer.problem)?.problem;
        return { mechanisms: [...new Set(answers.flatMap(answer => answer.mechanisms))], ...problem ? { problem } : {} };
    }

    broadcast(state: KeepAwakeState): void {
        this.windows.forEach(window => window.stateChanged(state));
    }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error(`no answer within ${WINDOW_TIMEOUT_MS / 1000} s`)), WINDOW_TIMEOUT_MS));
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
