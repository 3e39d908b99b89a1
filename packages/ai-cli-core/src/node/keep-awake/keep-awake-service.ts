import { inject, injectable, named, postConstruct } from '@theia/core/shared/inversify';
import { ContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { ILogger } from '@theia/core/lib/common/logger';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import {
    KEEP_AWAKE_DEFAULT_INTERVAL_SECONDS, KEEP_AWAKE_MAX_INTERVAL_SECONDS, KEEP_AWAKE_MIN_INTERVAL_SECONDS, KeepAwakeState
} from '../../common/keep-awake-protocol';
import { AgentWorkRegistry } from './agent-work-registry';
import { WindowCommandReporter } from './window-command-reporter';
import { WorkspaceActivityReporter } from './workspace-activity-reporter';

/**
 * Keeps the workspace awake while an agent works, and only then: from the moment something registers
 * in the {@link AgentWorkRegistry} until the last of it ends, activity is reported to the platform at
 * once and every interval, through every {@link WorkspaceActivityReporter}. With nothing working,
 * nothing is reported, so the platform may still put an idle workspace to sleep.
 */
@injectable()
export class KeepAwakeService implements BackendApplicationContribution {
    @inject(AgentWorkRegistry) protected readonly work: AgentWorkRegistry;
    @inject(ContributionProvider) @named(WorkspaceActivityReporter) protected readonly reporters: ContributionProvider<WorkspaceActivityReporter>;
    @inject(WindowCommandReporter) protected readonly windows: WindowCommandReporter;
    @inject(ILogger) @named('ai-cli-core:keep-awake') protected readonly logger: ILogger;

    protected intervalSeconds = KEEP_AWAKE_DEFAULT_INTERVAL_SECONDS;
    /** A second in ms; a test's subclass makes time pass faster. */
    protected readonly secondMs: number = 1000;
    protected timer?: NodeJS.Timeout;
    protected last?: { at: number; mechanisms: readonly string[]; problem?: string };

    @postConstruct()
    protected init(): void {
        this.work.onDidChange(() => this.update());
    }

    /** Made at start-up, not with the first window: agent tasks may run while no window is open. */
    initialize(): void {
        // Nothing more: constructing it subscribed it to the registry.
    }

    state(): KeepAwakeState {
        return {
            work: this.work.current(),
            intervalSeconds: this.intervalSeconds,
            backendMechanisms: this.reporters.getContributions().flatMap(reporter => reporter.available()),
            mechanisms: this.last?.mechanisms ?? [],
            ...this.last ? { lastReportAt: this.last.at } : {},
            ...this.last?.problem ? { problem: this.last.problem } : {}
        };
    }

    setIntervalSeconds(seconds: number): void {
        const bounded = Number.isFinite(seconds)
            ? Math.min(KEEP_AWAKE_MAX_INTERVAL_SECONDS, Math.max(KEEP_AWAKE_MIN_INTERVAL_SECONDS, Math.round(seconds)))
            : KEEP_AWAKE_DEFAULT_INTERVAL_SECONDS;
        if (bounded !== this.intervalSeconds) {
            this.intervalSeconds = bounded;
            if (this.timer) {
                this.stop();
                this.update();
            }
        }
    }

    protected update(): void {
        const working = this.work.current().length > 0;
        if (working && !this.timer) {
            this.logger.info(`Keeping the workspace awake (every ${this.intervalSeconds} s) for ${this.work.current().join(', ')}`);
            void this.reportNow();
            this.timer = setInterval(() => void this.reportNow(), this.intervalSeconds * this.secondMs);
        } else if (!working && this.timer) {
            this.logger.info('No agent works: the workspace is no longer kept awake');
            this.stop();
        }
        this.windows.broadcast(this.state());
    }

    protected stop(): void {
        clearInterval(this.timer);
        this.timer = undefined;
    }

    protected async reportNow(): Promise<void> {
        const work = this.work.current();
        if (!work.length) {
            return;
        }
        const reason = `Theia CLI Companion: ${work.join(', ')}`;
        const reports = await Promise.all(this.reporters.getContributions().map(reporter => reporter.report(reason).catch(error => ({
            mechanisms: [] as string[], problem: String(error)
        }))));
        const problem = reports.find(report => report.problem)?.problem;
        this.last = { at: Date.now(), mechanisms: [...new Set(reports.flatMap(report => report.mechanisms))], ...problem ? { problem } : {} };
        this.windows.broadcast(this.state());
    }
}
