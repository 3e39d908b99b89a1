import type { IdeTransport } from '@theia-cli-companion/cli-process/lib/common';
import { createClaudeCodeEndpoint } from './claude-code-endpoint';
import { McpEndpoint } from './mcp-endpoint';
import { WindowEndpointServices } from './window-endpoint-services';

/**
 * The endpoints a window opens besides its Streamable HTTP one (which it always has: its ACP agents
 * connect there too), one per transport its CLIs use.
 */
export const FLAVOUR_ENDPOINTS: Readonly<Record<Exclude<IdeTransport, 'mcp-streamable-http'>, (window: WindowEndpointServices) => McpEndpoint>> = Object.freeze({
    'claude-code-websocket': createClaudeCodeEndpoint
});
