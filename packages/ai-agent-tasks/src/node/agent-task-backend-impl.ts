import { inject, injectable } from '@theia/core/shared/inversify';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { z } from 'zod';
import { APPROVAL_MODES } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { AgentTaskBackend, AgentTaskClient, AgentTaskDetail, AgentTaskRequest, AgentTaskSummary, RevertResult } from '../common/agent-task-protocol';
import { AgentTaskManager } from './agent-task-manager';
import { CLI_CATALOGUE, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

const AgentTaskRequestSchema = z.object({
    prompt: z.string().trim().min(1, 'the prompt is empty').max(100_000),
    cwd: z.string().min(1).refine(value => value.startsWith('/') && !value.includes('\0'), 'the folder must be an absolute path'),
    approvalMode: z.enum(APPROVAL_MODES),
    model: z.string().regex(/^[\w.:/-]{1,200}$/, 'not a model name').optional(),
    skipTrust: z.boolean().optional(),
    command: z.string().min(1).max(4096).optional()
}).strict();
const Id = z.string().uuid();
const FilePath = z.string().min(1).max(4096);

/** One window's access to the backend's agent tasks; every argument from the frontend is validated here. */
@injectable()
export class AgentTaskBackendImpl implements AgentTaskBackend {
    @inject(AgentTaskManager) protected readonly manager: AgentTaskManager;
    protected readonly toDispose = new DisposableCollection();
    protected client?: AgentTaskClient;

    setClient(client: AgentTaskClient | undefined): void {
        this.toDispose.dispose();
        this.client = client;
        if (client) {
            this.toDispose.push(this.manager.onLine(({ id, seq, line }) => client.onTaskLine(id, seq, line)));
            this.toDispose.push(this.manager.onChanged(summary => client.onTaskChanged(summary)));
            this.toDispose.push(this.manager.onRemoved(id => client.onTaskRemoved(id)));
        }
    }

    async start(request: AgentTaskRequest & { command?: string }): Promise<AgentTaskSummary> {
        const parsed = AgentTaskRequestSchema.safeParse(request);
        if (!parsed.success) {
            throw new Error(`Invalid agent task: ${formatZodIssues(parsed.error, 'request')}`);
        }
        const { command, ...valid } = parsed.data;
        return this.manager.start(valid, command ?? CLI_CATALOGUE.gemini.command);
    }

    cancel(id: string): Promise<void> {
        return this.manager.cancel(Id.parse(id));
    }

    list(roots: string[]): Promise<AgentTaskSummary[]> {
        return this.manager.list(z.array(FilePath).max(100).parse(roots));
    }

    get(id: string): Promise<AgentTaskDetail | undefined> {
        return this.manager.get(Id.parse(id));
    }

    remove(id: string): Promise<void> {
        return this.manager.remove(Id.parse(id));
    }

    baseline(id: string, path: string): Promise<string | undefined> {
        return this.manager.baseline(Id.parse(id), FilePath.parse(path));
    }

    revert(id: string, path: string, force: boolean): Promise<RevertResult> {
        return this.manager.revert(Id.parse(id), FilePath.parse(path), z.boolean().parse(force));
    }

    dispose(): void {
        this.toDispose.dispose();
    }
}
