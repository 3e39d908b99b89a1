import { injectable } from '@theia/core/shared/inversify';
import { StreamJsonLine } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { AgentTaskClient, AgentTaskSummary } from '../common/agent-task-protocol';

/**
 * The backend's callbacks, handed on to the task service once it exists (the service needs the
 * backend proxy, and the proxy needs a client: this breaks the cycle).
 */
@injectable()
export class AgentTaskClientImpl implements AgentTaskClient {
    target?: AgentTaskClient;

    onTaskLine(id: string, seq: number, line: StreamJsonLine): void {
        this.target?.onTaskLine(id, seq, line);
    }

    onTaskChanged(summary: AgentTaskSummary): void {
        this.target?.onTaskChanged(summary);
    }

    onTaskRemoved(id: string): void {
        this.target?.onTaskRemoved(id);
    }
}
