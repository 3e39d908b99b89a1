import type { AcpTurnSink } from './acp-chat-client-impl';

/**
 * The running turn of each chat, and the agent it is a turn of. While a chat changes agent, what the agent
 * it talked to still sends (a cancelled turn's last chunks) must not show in the new agent's turn: a turn
 * is handed out only when its agent is the one the chat talks to now.
 */
export class AcpTurnSinks {
    protected readonly sinks = new Map<string, { readonly sink: AcpTurnSink; readonly agent?: string }>();

    attach(chatSessionId: string, sink: AcpTurnSink, agentName?: string): void {
        this.sinks.set(chatSessionId, { sink, agent: agentName });
    }

    detach(chatSessionId: string, sink: AcpTurnSink): void {
        if (this.sinks.get(chatSessionId)?.sink === sink) {
            this.sinks.delete(chatSessionId);
        }
    }

    /** The chat's running turn, if it is a turn of `currentAgent` (or either agent is not known). */
    of(chatSessionId: string, currentAgent: string | undefined): AcpTurnSink | undefined {
        const entry = this.sinks.get(chatSessionId);
        return entry && (entry.agent === undefined || currentAgent === undefined || entry.agent === currentAgent) ? entry.sink : undefined;
    }
}
