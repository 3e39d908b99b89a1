import { IdeProbe } from '../hosts/ide-probe';
import { IdeWindow } from '../hosts/ide-window';

/** What a scenario runs against: one window of a host, and a real CLI IdeClient connected from one of its terminals. */
export interface ScenarioSetup {
    readonly window: IdeWindow;
    readonly client: IdeProbe;
    /** The window's workspace folder, holding the scenarios' files ({@link DIFF_SCENARIO_FILES}, {@link CONTEXT_SCENARIO_FILES}). */
    readonly workspace: string;
    /** Connects another client of the same CLI with `env` (the spec's hooks close it), once it reports `connected`. */
    connect(env: Record<string, string>): Promise<IdeProbe>;
    /** Runs with a proposal open and edited, before it is accepted: a host's own checks, a screenshot for the docs. */
    whileProposalEdited?(): Promise<void>;
    /** Runs while a queued proposal is listed in Pending Changes: a screenshot for the docs. */
    whileQueued?(): Promise<void>;
}

/** One user story written once, run by the spec of every host (a Theia window, a code-server window) as its own test. */
export interface Scenario {
    readonly title: string;
    run(setup: ScenarioSetup): Promise<void>;
}
