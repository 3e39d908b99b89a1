import { ClaudeIdeTools } from './claude-ide-tools';
import { ClaudeWebSocketServer } from './claude-websocket-server';
import { McpEndpoint } from './mcp-endpoint';
import { WindowEndpointServices } from './window-endpoint-services';

/** Claude Code's endpoint of a window: its WebSocket server, whose sessions get Claude Code's IDE tools. */
export function createClaudeCodeEndpoint(window: WindowEndpointServices): McpEndpoint {
    const server: ClaudeWebSocketServer = new ClaudeWebSocketServer({
        authTokens: () => window.credentials('claude-code-websocket'), logger: window.logger,
        configureSession: (mcp, sessionId) => tools.registerTools(mcp, sessionId)
    });
    const tools = new ClaudeIdeTools({
        logger: window.logger, frontend: window.frontend, roots: window.roots, context: window.context, diffs: window.diffs,
        currentSelection: () => server.currentSelection, latestSelection: () => server.latestSelection
    });
    return server;
}
