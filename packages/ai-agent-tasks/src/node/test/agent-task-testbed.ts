import * as fs from 'fs';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { AgentTaskDetail } from '../../common/agent-task-protocol';
import { AgentTaskBackendImpl } from '../agent-task-backend-impl';
import { AgentTaskManager } from '../agent-task-manager';
import { AgentWorkRegistry } from '@theia-cli-companion/ai-cli-core/lib/node';

/**
 * A stand-in for `gemini -p … --output-format stream-json`: a shell script that runs `shell` in the
 * task's folder, then prints `lines` and a successful `result`.
 */
export function writeFakeGemini(file: string, run: { lines?: string[]; shell?: string }): string {
    const lines = [...run.lines ?? [], JSON.stringify({ type: 'result', timestamp: 't', status: 'success' })];
    fs.writeFileSync(file, `#!/bin/sh\n${run.shell ?? ''}\ncat <<'END_OF_LINES'\n${lines.join('\n')}\nEND_OF_LINES\n`, { mode: 0o755 });
    return file;
}

/**
 * The backend's graph for agent tasks, keeping its tasks and blobs in `configDir`; `backend()` is one more window's connection;
 * `work`: what the backend counts as agents working (the workspace is kept awake meanwhile).
 */
export function createAgentTaskBackend(configDir: string): { manager: AgentTaskManager; backend: () => AgentTaskBackendImpl; work: AgentWorkRegistry } {
    const log = () => undefined;
    const logger = { debug: log, info: log, warn: log, error: log, log, isDebug: async () => false, child: () => logger } as unknown as ILogger;
    const container = new Container();
    container.bind(ILogger).toConstantValue(logger);
    container.bind(EnvVariablesServer).toConstantValue({ getConfigDirUri: async () => FileUri.create(configDir).toString() } as EnvVariablesServer);
    container.bind(AgentWorkRegistry).toSelf().inSingletonScope();
    container.bind(AgentTaskManager).toSelf().inSingletonScope();
    container.bind(AgentTaskBackendImpl).toSelf();
    return { manager: container.get(AgentTaskManager), backend: () => container.get(AgentTaskBackendImpl), work: container.get(AgentWorkRegistry) };
}

/** Starts a task (through the manager or a window) and resolves with its detail once it ended and its changes are known. */
export async function runTask(manager: AgentTaskManager, start: () => Promise<{ id: string }>): Promise<AgentTaskDetail> {
    let id: string | undefined;
    const ended = new Promise<void>(resolve => {
        const listener = manager.onChanged(summary => {
            if (summary.id === id && summary.changes.state !== 'pending') {
                listener.dispose();
                resolve();
            }
        });
    });
    id = (await start()).id;
    await ended;
    return (await manager.get(id))!;
}
