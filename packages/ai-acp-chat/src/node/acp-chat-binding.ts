import type { AcpAgent, AcpSession } from '@theia-cli-companion/acp-client/lib/node';
import type { AgentCredential } from '@theia-cli-companion/ai-cli-core/lib/node';

/** One chat's agent as the backend keeps it: one binding per (chat, agent), its process and its session. */
export interface ChatBinding {
    /** The name of the agent definition (what a message names with @): one binding per (chat, agent). */
    readonly agentName: string;
    readonly agent: AcpAgent;
    readonly roots: readonly string[];
    /** Ignored files the turns' snapshots record anyway. */
    snapshotInclude: readonly string[];
    session?: AcpSession;
    /** The agent's own secret for this window's companion server, while it may use it. */
    credential?: AgentCredential;
    /** The user's MCP servers its session got, and the ones left out. */
    sharedMcpServers?: { offered: string[]; leftOut: { name: string; reason: string }[] };
    /** Prompts sent and not yet answered: a turn that must end when the chat changes agent. */
    promptsRunning: number;
}
