import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { IdeTransport } from '@theia-cli-companion/cli-process/lib/common';
import type { Contributions } from '../contributions';
import type { SessionCredential } from '../../common/window-protocol';

/** One MCP session of a window's endpoint, as a tool contribution sees it when the session starts. */
export interface McpSessionContext {
    readonly mcp: McpServer;
    readonly sessionId: string;
    /** Who opened it: a CLI flavour's discovery secret, or an ACP agent's. */
    readonly credential: SessionCredential;
    /** The endpoint it came through. */
    readonly transport: IdeTransport;
}

/**
 * Tools a window offers its MCP sessions. Every endpoint asks every contribution at the start of each
 * session; a contribution registers the tools meant for that session (by transport and credential).
 */
export const McpToolContribution = Symbol('McpToolContribution');
export interface McpToolContribution {
    registerTools(session: McpSessionContext): void;
}

/** What an endpoint does at the start of each session: lets every tool contribution register its tools. */
export function registerContributedTools(tools: Contributions<McpToolContribution>, transport: IdeTransport) {
    return (mcp: McpServer, sessionId: string, credential: SessionCredential): void =>
        tools.getContributions().forEach(contribution => contribution.registerTools({ mcp, sessionId, credential, transport }));
}
