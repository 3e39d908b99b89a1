import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { ensurePrivateDirectory, writePrivateFileAtomic } from '@theia-cli-companion/safe-files/lib/node';
import { AgentTaskDetail } from '../common/agent-task-protocol';
import { describeError, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

/** What a stored task file must at least hold to be listed; the rest is ours, written by this class. */
const StoredTaskSchema = z.object({
    id: z.string().regex(/^[0-9a-f-]{8,64}$/),
    request: z.object({ prompt: z.string(), cwd: z.string(), approvalMode: z.string() }).passthrough(),
    startedAt: z.number(),
    state: z.string(),
    changes: z.object({ state: z.string() }).passthrough(),
    transcript: z.object({
        entries: z.array(z.unknown()),
        // Tasks stored by earlier versions keep their tool calls in an object keyed by tool id: the same records.
        toolCalls: z.union([z.array(z.unknown()), z.record(z.unknown()).transform(calls => Object.values(calls))])
    }).passthrough()
}).passthrough();

/** Finished and running tasks, one private JSON file each, so they outlive reloads and backend restarts. */
export class AgentTaskStore {
    constructor(readonly dir: string, protected readonly warn: (message: string) => void) { }

    async save(task: AgentTaskDetail): Promise<void> {
        await ensurePrivateDirectory(this.dir);
        await writePrivateFileAtomic(this.file(task.id), JSON.stringify(task));
    }

    async remove(id: string): Promise<void> {
        await fs.promises.rm(this.file(id), { force: true });
    }

    /** Every readable task; a damaged file is reported and left where it is, not deleted. */
    async loadAll(): Promise<AgentTaskDetail[]> {
        const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
        const tasks: AgentTaskDetail[] = [];
        for (const name of names.filter(each => each.endsWith('.json') && !each.startsWith('.'))) {
            try {
                const parsed = StoredTaskSchema.safeParse(JSON.parse(await fs.promises.readFile(path.join(this.dir, name), 'utf8')));
                if (parsed.success) {
                    tasks.push(parsed.data as unknown as AgentTaskDetail);
                } else {
                    this.warn(`Skipping agent task file ${name}: ${formatZodIssues(parsed.error, 'task')}`);
                }
            } catch (error) {
                this.warn(`Skipping agent task file ${name}: ${describeError(error)}`);
            }
        }
        return tasks.sort((a, b) => b.startedAt - a.startedAt);
    }

    protected file(id: string): string {
        if (!/^[0-9a-f-]{8,64}$/.test(id)) {
            throw new Error(`not a task id: ${id}`);
        }
        return path.join(this.dir, `${id}.json`);
    }
}
