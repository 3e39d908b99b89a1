import { ContainerModule } from 'inversify';
import { McpEndpoint } from '../mcp-endpoint';
import { McpToolContribution, registerContributedTools } from '../tools/mcp-tool-contribution';
import { contributedToolsOf } from '../window-companion-module';
import { WindowContext } from '../window-context';
import { WindowCredentials } from '../guards/window-credentials';
import { ClaudeIdeTools } from './claude-ide-tools';
import { ClaudeWebSocketServer } from './claude-websocket-server';

/** What Claude Code needs in each window's graph: its WebSocket endpoint and its own tools. */
export const claudeWindowModule = new ContainerModule(bind => {
    bind(ClaudeIdeTools).toSelf().inSingletonScope();
    bind(McpToolContribution).toService(ClaudeIdeTools);
    bind(ClaudeWebSocketServer).toDynamicValue(context => {
        const credentials = context.container.get(WindowCredentials);
        return new ClaudeWebSocketServer({
            authTokens: () => credentials.credentialsFor('claude-code-websocket'), logger: context.container.get(WindowContext).log,
            configureSession: registerContributedTools(contributedToolsOf(context), 'claude-code-websocket')
        });
    }).inSingletonScope();
    bind(McpEndpoint).toService(ClaudeWebSocketServer);
});
