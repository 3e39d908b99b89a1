import type { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';

export const keepAwakeServicePath = '/services/ai-cli-core/keep-awake';

/**
 * Theia Cloud's monitor command (its Theia and its VS Code extension register it): run by another
 * extension, it counts as the user's activity, so the operator does not end the session as idle.
 */
export const THEIA_CLOUD_ACTIVITY_COMMAND = 'theia.cloud.monitor.activity.report';

/** How often activity is reported while an agent works, by default: Theia Cloud's operator and Che's tracker look once a minute. */
export const KEEP_AWAKE_DEFAULT_INTERVAL_SECONDS = 60;
export const KEEP_AWAKE_MIN_INTERVAL_SECONDS = 5;
export const KEEP_AWAKE_MAX_INTERVAL_SECONDS = 600;

/** What keeps the workspace awake now, for the status view and the diagnostic report. */
export interface KeepAwakeState {
    /** What works now (`a chat turn with Gemini`, `agent task 3`), oldest first; none: nothing is reported. */
    readonly work: readonly string[];
    readonly intervalSeconds: number;
    /** The ways the backend itself can report, window or not (`Theia Cloud service`). */
    readonly backendMechanisms: readonly string[];
    /** The ways the last report reached the platform (`Theia Cloud monitor command`, `Theia Cloud service`); none: no way was found. */
    readonly mechanisms: readonly string[];
    /** When the last report was made (ms since the epoch). */
    readonly lastReportAt?: number;
    /** Why the last report did not reach a way it tried, in words. */
    readonly problem?: string;
}

/** What a window runs when the backend reports activity: the IDE commands a platform listens to. */
export interface KeepAwakeClient {
    /** Runs this window's activity commands with `reason`; answers the names of those that ran. */
    reportActivity(reason: string): Promise<string[]>;
    stateChanged(state: KeepAwakeState): void;
}

export const KeepAwakeBackend = Symbol('KeepAwakeBackend');
/** The backend's side: it knows what works (chat turns, agent tasks), also while no window is open. */
export interface KeepAwakeBackend extends RpcServer<KeepAwakeClient> {
    state(): Promise<KeepAwakeState>;
    /** The user's interval (seconds, from their settings); clamped to the bounds above. */
    setIntervalSeconds(seconds: number): Promise<void>;
}
