import { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';
import type { SnapshotFileChange } from '@theia-cli-companion/ai-cli-core/lib/common';
import { ApprovalMode, RetryNotice, TaskOutcomeKind, StreamJsonLine, TaskTranscript } from '@theia-cli-companion/gemini-headless-protocol/lib/common';

export const agentTaskServicePath = '/services/ai-cli-companion/agent-tasks';

export interface AgentTaskRequest {
    prompt: string;
    /** The folder the CLI runs in (a file-system path inside the workspace). */
    cwd: string;
    approvalMode: ApprovalMode;
    model?: string;
    skipTrust?: boolean;
}

/** What starting a task takes besides the request it keeps: the user's settings at the time. */
export interface AgentTaskStartRequest extends AgentTaskRequest {
    /** The Gemini CLI to run (the user's setting). */
    command?: string;
    /** Ignored files its snapshots record anyway (globs; `aiCliCompanion.snapshots.include`). */
    snapshotInclude?: string[];
}

/** A file a task changed, against the snapshot taken before it started. */
export interface FileChange extends SnapshotFileChange {
    /** When the user reverted it. */
    revertedAt?: number;
    /** When the user kept it as the task left it (decided in review, so no longer pending). */
    keptAt?: number;
}

export type AgentTaskState = 'preparing' | 'running' | TaskOutcomeKind;

export interface AgentTaskSummary {
    id: string;
    request: AgentTaskRequest;
    /** The executable that ran (resolved on the backend's PATH). */
    executable?: string;
    pid?: number;
    startedAt: number;
    endedAt?: number;
    state: AgentTaskState;
    /** Why it ended, in words (see `classifyExit`). */
    outcomeMessage?: string;
    exit?: { code: number | null; signal: string | null };
    /** The CLI is retrying a failed request (network trouble), as its stderr says. */
    retry?: RetryNotice & { at: number };
    /** `pending` while running, `ready` once compared, `unavailable` with a reason otherwise. */
    changes: { state: 'pending' } | { state: 'ready'; files: FileChange[]; truncated: boolean } | { state: 'unavailable'; reason: string };
}

export interface AgentTaskDetail extends AgentTaskSummary {
    transcript: TaskTranscript;
}

/** How many stdout lines a transcript holds (the next line's `seq`). */
export function linesIn(transcript: TaskTranscript): number {
    const { events, unknownEvents, invalidEvents, notJson } = transcript.counts;
    return events + unknownEvents + invalidEvents + notJson;
}

export type RevertResult =
    | { kind: 'reverted' }
    /** The file is no longer what the task left: reverting would lose later edits, so nothing was written. */
    | { kind: 'changed-since' }
    | { kind: 'not-reviewable'; reason: string };

export const AgentTaskBackend = Symbol('AgentTaskBackend');
export interface AgentTaskBackend extends RpcServer<AgentTaskClient> {
    /**
     * This window's workspace roots (file-system paths). A window hears about, and may act on, only
     * the tasks whose folder lies inside one of them (symlinks resolved); until it tells them, none.
     */
    setWorkspaceRoots(roots: string[]): Promise<void>;
    /** `command`: the Gemini CLI executable (a name on the backend's PATH or a path); `gemini` by default. */
    start(request: AgentTaskStartRequest): Promise<AgentTaskSummary>;
    cancel(id: string): Promise<void>;
    /** The tasks that ran in one of this window's roots (or below), newest first. */
    list(): Promise<AgentTaskSummary[]>;
    get(id: string): Promise<AgentTaskDetail | undefined>;
    /** Forgets a finished task and the contents only it kept. */
    remove(id: string): Promise<void>;
    /** The file's content before the task ('' for a file the task created); undefined when not recorded. */
    baseline(id: string, path: string): Promise<string | undefined>;
    /** Puts the file back as it was before the task; `force` even when it changed after the task. */
    revert(id: string, path: string, force: boolean): Promise<RevertResult>;
    /** Marks the change as reviewed and kept; the file is not touched. False when the task did not change it. */
    keep(id: string, path: string): Promise<boolean>;
}

export interface AgentTaskClient {
    /** A stdout line of a running task; `seq` counts from 0, so a client that fetched the detail knows which it has. */
    onTaskLine(id: string, seq: number, line: StreamJsonLine): void;
    /** The task's summary changed (state, retry, exit, changes). */
    onTaskChanged(summary: AgentTaskSummary): void;
    onTaskRemoved(id: string): void;
}
