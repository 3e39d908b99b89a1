import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { ActivityReport, WorkspaceActivityReporter } from './workspace-activity-reporter';

/** How long one report may take: the next one comes an interval later anyway. */
const REQUEST_TIMEOUT_MS = 10_000;

/** What Theia Cloud gives every session's pod: its service, the session's name, the app's token. */
export interface TheiaCloudSession {
    readonly serviceUrl: URL;
    readonly sessionName: string;
    readonly appToken: string;
}

/** The session this backend runs in, from its environment; undefined outside Theia Cloud or when a variable is not usable. */
export function theiaCloudSessionOf(env: NodeJS.ProcessEnv): TheiaCloudSession | undefined {
    const sessionName = env.THEIACLOUD_SESSION_NAME;
    // Theia Cloud 1.x names the app's token THEIACLOUD_SERVICE_AUTH_TOKEN; older releases THEIACLOUD_APP_ID.
    const appToken = env.THEIACLOUD_SERVICE_AUTH_TOKEN || env.THEIACLOUD_APP_ID;
    if (!env.THEIACLOUD_SERVICE_URL || !sessionName || !appToken) {
        return undefined;
    }
    try {
        const serviceUrl = new URL(env.THEIACLOUD_SERVICE_URL);
        return serviceUrl.protocol === 'http:' || serviceUrl.protocol === 'https:' ? { serviceUrl, sessionName, appToken } : undefined;
    } catch {
        return undefined;
    }
}

/**
 * Reports activity to Theia Cloud's service (`PATCH /service/session`, a `sessionActivityRequest`),
 * which sets the session's last activity that its operator judges idleness by. Needs no window and no
 * monitor extension: a chat turn or an agent task keeps the session even with every tab closed.
 */
@injectable()
export class TheiaCloudSessionReporter implements WorkspaceActivityReporter {
    static readonly MECHANISM = 'Theia Cloud service';

    @inject(ILogger) @named('ai-cli-core:keep-awake') protected readonly logger: ILogger;

    protected readonly session = theiaCloudSessionOf(process.env);
    protected lastProblem?: string;

    available(): readonly string[] {
        return this.session ? [`${TheiaCloudSessionReporter.MECHANISM} (${this.session.serviceUrl.origin}, session ${this.session.sessionName})`] : [];
    }

    async report(): Promise<ActivityReport> {
        if (!this.session) {
            return { mechanisms: [] };
        }
        const { serviceUrl, sessionName, appToken } = this.session;
        // Relative to the service's URL, which may have a path of its own.
        const endpoint = new URL('service/session', serviceUrl.href.endsWith('/') ? serviceUrl.href : `${serviceUrl.href}/`);
        const problem = await fetch(endpoint, {
            method: 'PATCH',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ kind: 'sessionActivityRequest', appId: appToken, sessionName }),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
        }).then(response => response.ok ? undefined : `${TheiaCloudSessionReporter.MECHANISM} answered HTTP ${response.status}`,
            error => `${TheiaCloudSessionReporter.MECHANISM} at ${serviceUrl.origin} not reached: ${describeError(error)}`);
        // Said once per kind of failure, not every interval; the app's token is never in it.
        if (problem && problem !== this.lastProblem) {
            this.logger.warn(`Could not report activity: ${problem}`);
        }
        this.lastProblem = problem;
        return problem ? { mechanisms: [], problem } : { mechanisms: [TheiaCloudSessionReporter.MECHANISM] };
    }
}
