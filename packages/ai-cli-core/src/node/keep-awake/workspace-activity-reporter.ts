/** What one report of activity achieved: the ways it reached the platform, and why another did not. */
export interface ActivityReport {
    readonly mechanisms: readonly string[];
    readonly problem?: string;
}

export const WorkspaceActivityReporter = Symbol('WorkspaceActivityReporter');
/**
 * One way of telling the platform the workspace is in use (contribution point): a Theia Cloud
 * service call, the windows' activity commands. Each says nothing when it does not apply here.
 */
export interface WorkspaceActivityReporter {
    report(reason: string): Promise<ActivityReport>;
    /** The ways it can report here, known without reporting; none when it depends on the windows. */
    available(): readonly string[];
}
