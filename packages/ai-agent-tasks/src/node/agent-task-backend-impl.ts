import * as fs from 'fs';
import * as path from 'path';
import { inject, injectable } from '@theia/core/shared/inversify';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { z } from 'zod';
import { APPROVAL_MODES } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { AgentTaskBackend, AgentTaskClient, AgentTaskDetail, AgentTaskStartRequest, AgentTaskSummary, RevertResult } from '../common/agent-task-protocol';
import { AgentTaskManager } from './agent-task-manager';
import { CLI_CATALOGUE, formatZodIssues, isPathWithin } from '@theia-cli-companion/cli-process/lib/common';
import { SnapshotIncludeSchema } from '@theia-cli-companion/ai-cli-core/lib/common';

const AgentTaskRequestSchema = z.object({
    prompt: z.string().trim().min(1, 'the prompt is empty').max(100_000),
    cwd: z.string().min(1).refine(value => value.startsWith('/') && !value.includes('\0'), 'the folder must be an absolute path'),
    approvalMode: z.enum(APPROVAL_MODES),
    model: z.string().regex(/^[\w.:/-]{1,200}$/, 'not a model name').optional(),
    skipTrust: z.boolean().optional(),
    command: z.string().min(1).max(4096).optional(),
    snapshotInclude: SnapshotIncludeSchema.optional()
}).strict();
const Id = z.string().uuid();
const FilePath = z.string().min(1).max(4096);
const Roots = z.array(FilePath.refine(value => path.isAbsolute(value) && !value.includes('\0'), 'a root must be an absolute path')).max(100);

/**
 * One window's access to the backend's agent tasks; every argument from the frontend is validated
 * here. The manager's tasks are every window's: a window sees and acts on those in its own roots only.
 */
@injectable()
export class AgentTaskBackendImpl implements AgentTaskBackend {
    @inject(AgentTaskManager) protected readonly manager: AgentTaskManager;
    protected readonly toDispose = new DisposableCollection();
    protected client?: AgentTaskClient;
    /** The window's workspace roots, realpath'd; roots that do not exist are left out. */
    protected roots: string[] = [];
    protected rootsChanges = 0;

    setClient(client: AgentTaskClient | undefined): void {
        this.toDispose.dispose();
        this.client = client;
        if (client) {
            this.toDispose.push(this.manager.onLine(({ id, seq, line }) => this.inWindow(this.manager.folderOf(id)) && client.onTaskLine(id, seq, line)));
            this.toDispose.push(this.manager.onChanged(summary => this.inWindow(this.manager.folderOf(summary.id)) && client.onTaskChanged(summary)));
            this.toDispose.push(this.manager.onRemoved(({ id, folder }) => this.inWindow(folder) && client.onTaskRemoved(id)));
        }
    }

    async setWorkspaceRoots(roots: string[]): Promise<void> {
        const change = ++this.rootsChanges;
        const real = await Promise.all(Roots.parse(roots).map(root => fs.promises.realpath(root).catch(() => undefined)));
        // Two changes in flight: the last one asked for wins, whichever resolves first.
        if (change === this.rootsChanges) {
            this.roots = real.filter((root): root is string => root !== undefined);
        }
    }

    async start(request: AgentTaskStartRequest): Promise<AgentTaskSummary> {
        const parsed = AgentTaskRequestSchema.safeParse(request);
        if (!parsed.success) {
            throw new Error(`Invalid agent task: ${formatZodIssues(parsed.error, 'request')}`);
        }
        const { command, snapshotInclude, ...valid } = parsed.data;
        const folder = await fs.promises.realpath(valid.cwd).catch(() => undefined);
        // A folder that does not exist is the manager's to report.
        if (folder !== undefined && !this.inWindow(folder)) {
            throw new Error(`The task's folder is not inside this window's workspace: ${valid.cwd}`);
        }
        return this.manager.start(valid, command ?? CLI_CATALOGUE.gemini.command, snapshotInclude);
    }

    async cancel(id: string): Promise<void> {
        return this.manager.cancel(await this.requireInWindow(id));
    }

    list(): Promise<AgentTaskSummary[]> {
        return this.manager.list(this.roots);
    }

    async get(id: string): Promise<AgentTaskDetail | undefined> {
        const detail = await this.manager.get(Id.parse(id));
        return detail && this.inWindow(this.manager.folderOf(id)) ? detail : undefined;
    }

    async remove(id: string): Promise<void> {
        return this.manager.remove(await this.requireInWindow(id));
    }

    async baseline(id: string, file: string): Promise<string | undefined> {
        return this.manager.baseline(await this.requireInWindow(id), FilePath.parse(file));
    }

    async revert(id: string, file: string, force: boolean): Promise<RevertResult> {
        return this.manager.revert(await this.requireInWindow(id), FilePath.parse(file), z.boolean().parse(force));
    }

    async keep(id: string, file: string): Promise<boolean> {
        return this.manager.keep(await this.requireInWindow(id), FilePath.parse(file));
    }

    dispose(): void {
        this.toDispose.dispose();
    }

    protected inWindow(folder: string | undefined): boolean {
        return folder !== undefined && this.roots.some(root => isPathWithin(folder, root, path.sep));
    }

    /** The id of a task in this window's roots; any other is refused as if it did not exist. */
    protected async requireInWindow(id: string): Promise<string> {
        // get() loads the stored tasks first, so the manager knows their folders.
        if (!await this.get(id)) {
            throw new Error(`No agent task ${id} in this window's workspace`);
        }
        return id;
    }
}
