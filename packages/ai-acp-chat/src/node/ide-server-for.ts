import type * as acp from '@agentclientprotocol/sdk';
import type { WindowAgentCredentials } from '@theia-cli-companion/ai-cli-core/lib/node';
import { IDE_MCP_SERVER_NAME } from '../common/theia-mcp-servers';
import type { ChatBinding } from './acp-chat-binding';

/**
 * The window's companion server, with a secret of this agent's own, when the window runs one and the agent speaks
 * MCP over HTTP: the agent gets the IDE's tools (diagnostics, open editors, …). The secret is kept on the binding.
 */
export function ideServerFor(agentName: string, chat: ChatBinding, credentials: WindowAgentCredentials): acp.McpServer[] {
    if (!chat.agent.initializeResponse?.agentCapabilities?.mcpCapabilities?.http) {
        return [];
    }
    chat.credential ??= credentials.issueAgentCredential(`ACP agent ${agentName}`);
    if (!chat.credential) {
        return [];
    }
    return [{ type: 'http', name: IDE_MCP_SERVER_NAME, url: chat.credential.url, headers: [{ name: 'Authorization', value: `Bearer ${chat.credential.token}` }] }];
}
