import { inject, injectable, named, postConstruct } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { Disposable, DisposableCollection } from '@theia/core/lib/common/disposable';
import { ILogger } from '@theia/core/lib/common/logger';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { StreamJsonLine, TaskTranscript, applyStreamJsonLine, emptyTranscript } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { AgentTaskClientImpl } from './agent-task-client-impl';
import { AgentTaskBackend, AgentTaskClient, AgentTaskStartRequest, AgentTaskSummary, linesIn } from '../common/agent-task-protocol';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';

export interface AgentTaskView {
    summary: AgentTaskSummary;
    /** Empty until `loaded`: finished tasks fetch theirs when first shown. */
    transcript: TaskTranscript;
    loaded: boolean;
}

/** The summary went from `from` to `to`: what notifications are made of. */
export interface AgentTaskTransition {
    task: AgentTaskView;
    from?: AgentTaskSummary;
}

export const isTaskActive = (summary: AgentTaskSummary) => summary.state === 'running' || summary.state === 'preparing';

/**
 * This window's view of the backend's agent tasks for its workspace: the summaries, and each
 * transcript rebuilt from the lines as they stream (the same reducer the backend uses).
 */
@injectable()
export class AgentTaskService implements AgentTaskClient {
    @inject(AgentTaskBackend) protected readonly backend: AgentTaskBackend;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(ILogger) @named('ai-agent-tasks:AgentTaskService') protected readonly logger: ILogger;
    @inject(AgentTaskClientImpl) protected readonly client: AgentTaskClientImpl;

    protected readonly tasks = new Map<string, AgentTaskView>();
    /** Lines that came before the task's detail did, applied once it arrives. */
    protected readonly early = new Map<string, { seq: number; line: StreamJsonLine }[]>();
    protected readonly loading = new Map<string, Promise<void>>();
    protected readonly toDispose = new DisposableCollection();
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange = this.onDidChangeEmitter.event;
    protected readonly onDidTransitionEmitter = new Emitter<AgentTaskTransition>();
    readonly onDidTransition = this.onDidTransitionEmitter.event;
    protected roots: string[] = [];
    /** Tasks that started, or changed state, while this window watched: the view shows them open. */
    protected readonly watched = new Set<string>();

    @postConstruct()
    protected init(): void {
        this.client.target = this;
        this.toDispose.pushAll([this.onDidChangeEmitter, this.onDidTransitionEmitter, Disposable.create(() => this.client.target = undefined)]);
        this.toDispose.push(this.workspace.onWorkspaceChanged(() => this.refresh()));
        // A new backend connection has a new per-window service, which knows no roots yet.
        const connection = this.backend as unknown as { onDidOpenConnection?: Event<void> };
        this.toDispose.push(connection.onDidOpenConnection?.(() => void this.refresh()) ?? Disposable.NULL);
        void this.refresh();
    }

    /** Newest first. */
    get all(): AgentTaskView[] {
        return [...this.tasks.values()].sort((a, b) => b.summary.startedAt - a.summary.startedAt);
    }

    find(id: string): AgentTaskView | undefined {
        return this.tasks.get(id);
    }

    /** Whether the task started or changed state while this window watched (also before its view existed). */
    changedWhileWatched(id: string): boolean {
        return this.watched.has(id);
    }

    async refresh(): Promise<void> {
        await this.workspace.ready;
        this.roots = this.workspace.tryGetRoots().map(root => root.resource.path.fsPath());
        // The backend sends and answers only what is inside the roots this window tells it.
        await this.backend.setWorkspaceRoots(this.roots);
        const summaries = this.roots.length ? await this.backend.list() : [];
        this.tasks.clear();
        summaries.forEach(summary => this.tasks.set(summary.id, { summary, transcript: emptyTranscript(), loaded: false }));
        // Only running tasks stream lines: the others' transcripts wait until they are opened.
        await Promise.all(summaries.filter(isTaskActive).map(summary => this.load(summary.id)));
        this.onDidChangeEmitter.fire();
    }

    async start(request: AgentTaskStartRequest): Promise<AgentTaskSummary> {
        const summary = await this.backend.start(request);
        this.watched.add(summary.id);
        await this.load(summary.id);
        this.onDidChangeEmitter.fire();
        return summary;
    }

    /** Fetches the task's transcript if this window does not have it yet. */
    ensureLoaded(id: string): Promise<void> {
        if (this.tasks.get(id)?.loaded !== false) {
            return Promise.resolve();
        }
        let loading = this.loading.get(id);
        if (!loading) {
            loading = this.load(id).then(() => this.onDidChangeEmitter.fire()).finally(() => this.loading.delete(id));
            this.loading.set(id, loading);
        }
        return loading;
    }

    cancel(id: string): Promise<void> {
        return this.backend.cancel(id);
    }

    async remove(id: string): Promise<void> {
        await this.backend.remove(id);
        this.onTaskRemoved(id);
    }

    protected async load(id: string): Promise<void> {
        const detail = await this.backend.get(id);
        if (!detail) {
            return;
        }
        const { transcript, ...summary } = detail;
        const view = { summary, transcript, loaded: true };
        const seen = linesIn(transcript);
        for (const { seq, line } of this.early.get(id) ?? []) {
            if (seq >= seen) {
                applyStreamJsonLine(transcript, line);
            }
        }
        this.early.delete(id);
        this.tasks.set(id, this.tasks.get(id) ? Object.assign(this.tasks.get(id)!, view) : view);
    }

    onTaskLine(id: string, seq: number, line: StreamJsonLine): void {
        const task = this.tasks.get(id);
        if (!task?.loaded) {
            this.early.set(id, [...this.early.get(id) ?? [], { seq, line }]);
            if (task) {
                void this.ensureLoaded(id);
            }
            return;
        }
        const next = linesIn(task.transcript);
        if (seq === next) {
            applyStreamJsonLine(task.transcript, line);
            this.onDidChangeEmitter.fire();
        } else if (seq > next) {
            this.logger.warn(`Agent task ${id}: line ${seq} came before line ${next}; reloading the task`);
            void this.load(id).then(() => this.onDidChangeEmitter.fire());
        }
    }

    onTaskChanged(summary: AgentTaskSummary): void {
        if (!this.inWorkspace(summary.request.cwd)) {
            return;
        }
        const task = this.tasks.get(summary.id);
        if (!task || task.summary.state !== summary.state) {
            this.watched.add(summary.id);
        }
        if (!task) {
            const placeholder = { summary, transcript: emptyTranscript(), loaded: false };
            this.tasks.set(summary.id, placeholder);
            void this.load(summary.id).then(() => this.onDidChangeEmitter.fire());
            this.onDidTransitionEmitter.fire({ task: placeholder });
        } else {
            const from = task.summary;
            task.summary = summary;
            this.onDidTransitionEmitter.fire({ task, from });
        }
        this.onDidChangeEmitter.fire();
    }

    onTaskRemoved(id: string): void {
        if (this.tasks.delete(id)) {
            this.onDidChangeEmitter.fire();
        }
    }

    protected inWorkspace(cwd: string): boolean {
        return this.roots.some(root => isPathWithin(cwd, root));
    }

    dispose(): void {
        this.toDispose.dispose();
    }
}
