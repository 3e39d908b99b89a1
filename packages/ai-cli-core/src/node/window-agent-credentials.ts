import type { AgentCredential } from '@theia-cli-companion/ide-companion-server/lib/node';

/**
 * What another backend service of the same frontend connection may ask of that connection's window:
 * a secret of its own for an ACP agent it starts, on the window's MCP server, so the agent gets the
 * IDE's tools. Bound per connection.
 */
export const WindowAgentCredentials = Symbol('WindowAgentCredentials');
export interface WindowAgentCredentials {
    /** Undefined while the connection has no window server (the companion is off, or not yet attached). */
    issueAgentCredential(label: string): AgentCredential | undefined;
}
