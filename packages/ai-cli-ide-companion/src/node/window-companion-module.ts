import { Container, ContainerModule, interfaces } from '@theia/core/shared/inversify';
import { bindContributionProvider, ContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { ClaudeIdeTools } from './claude-ide-tools';
import { ClaudeWebSocketServer } from './claude-websocket-server';
import { CompanionMcpServer } from './companion-mcp-server';
import { DiffReviewManager } from './diff-review-manager';
import { IdeContextTools } from './ide-context-tools';
import { IdeDiffTools } from './ide-diff-tools';
import { McpEndpoint } from './mcp-endpoint';
import { McpToolContribution, registerContributedTools } from './mcp-tool-contribution';
import { WindowCompanion } from './window-companion';
import { WindowCompanionOptions } from './window-companion-options';
import { WindowContext } from './window-context';
import { WindowCredentials } from './window-credentials';

const toolsOf = (context: interfaces.Context) => context.container.getNamed<ContributionProvider<McpToolContribution>>(ContributionProvider, McpToolContribution);

/**
 * The graph of one window: its context and secrets, its endpoints (`McpEndpoint`, one per transport)
 * and the tools they give their sessions (`McpToolContribution`), its diff review and the
 * `WindowCompanion` that ties them to the window's life. A new transport binds its endpoint here; a
 * new tool set binds its contribution.
 */
export const windowCompanionModule = new ContainerModule(bind => {
    bind(WindowContext).toSelf().inSingletonScope();
    bind(WindowCredentials).toSelf().inSingletonScope();
    bind(DiffReviewManager).toSelf().inSingletonScope();
    bind(WindowCompanion).toSelf().inSingletonScope();

    bindContributionProvider(bind, McpToolContribution);
    bind(IdeContextTools).toSelf().inSingletonScope();
    bind(McpToolContribution).toService(IdeContextTools);
    bind(IdeDiffTools).toSelf().inSingletonScope();
    bind(McpToolContribution).toService(IdeDiffTools);
    bind(ClaudeIdeTools).toSelf().inSingletonScope();
    bind(McpToolContribution).toService(ClaudeIdeTools);

    bindContributionProvider(bind, McpEndpoint);
    bind(CompanionMcpServer).toDynamicValue(context => {
        const { options, log } = context.container.get(WindowContext);
        const credentials = context.container.get(WindowCredentials);
        return new CompanionMcpServer({
            authTokens: () => credentials.credentialsFor('mcp-streamable-http'), logger: log,
            streamGraceMs: options.streamGraceMs, idleSessionMs: options.idleSessionMs,
            configureSession: registerContributedTools(toolsOf(context), 'mcp-streamable-http')
        });
    }).inSingletonScope();
    bind(McpEndpoint).toService(CompanionMcpServer);
    bind(ClaudeWebSocketServer).toDynamicValue(context => {
        const credentials = context.container.get(WindowCredentials);
        return new ClaudeWebSocketServer({
            authTokens: () => credentials.credentialsFor('claude-code-websocket'), logger: context.container.get(WindowContext).log,
            configureSession: registerContributedTools(toolsOf(context), 'claude-code-websocket')
        });
    }).inSingletonScope();
    bind(McpEndpoint).toService(ClaudeWebSocketServer);
});

/** Builds one window's graph in a container of its own (a child of `parent` when given). */
export function createWindowCompanion(options: WindowCompanionOptions, parent?: interfaces.Container): WindowCompanion {
    const container = parent ? parent.createChild() : new Container();
    container.bind(WindowCompanionOptions).toConstantValue(options);
    container.load(windowCompanionModule);
    return container.get(WindowCompanion);
}
