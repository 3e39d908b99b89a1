import { Container, ContainerModule, interfaces } from 'inversify';
import { bindContributions, Contributions } from './contributions';
import { StreamableHttpMcpServer } from './streamable-http/streamable-http-mcp-server';
import { DiffReviewManager } from './diff/diff-review-manager';
import { IdeContextTools } from './tools/ide-context-tools';
import { IdeDiffTools } from './diff/ide-diff-tools';
import { McpEndpoint } from './mcp-endpoint';
import { McpToolContribution, registerContributedTools } from './tools/mcp-tool-contribution';
import { WindowServer } from './window-server';
import { WindowServerOptions } from './window-server-options';
import { WindowContext } from './window-context';
import { WindowCredentials } from './guards/window-credentials';

/** The window's tool contributions, for an endpoint to register with each of its sessions. */
export const contributedToolsOf = (context: interfaces.Context) => context.container.getNamed<Contributions<McpToolContribution>>(Contributions, McpToolContribution);

/**
 * The graph of one window: its context and secrets, its endpoints (`McpEndpoint`, one per transport)
 * and the tools they give their sessions (`McpToolContribution`), its diff review and the
 * `WindowServer` that ties them to the window's life. This module binds what every window has:
 * the Streamable HTTP endpoint (Gemini CLI, Qwen Code, ACP agents) with the IDE and diff tools.
 * Another transport or tool set comes from an extension's `WindowModuleContribution`.
 */
export const windowServerModule = new ContainerModule(bind => {
    bind(WindowContext).toSelf().inSingletonScope();
    bind(WindowCredentials).toSelf().inSingletonScope();
    bind(DiffReviewManager).toSelf().inSingletonScope();
    bind(WindowServer).toSelf().inSingletonScope();

    bindContributions(bind, McpToolContribution);
    bind(IdeContextTools).toSelf().inSingletonScope();
    bind(McpToolContribution).toService(IdeContextTools);
    bind(IdeDiffTools).toSelf().inSingletonScope();
    bind(McpToolContribution).toService(IdeDiffTools);

    bindContributions(bind, McpEndpoint);
    bind(StreamableHttpMcpServer).toDynamicValue(context => {
        const { options, log } = context.container.get(WindowContext);
        const credentials = context.container.get(WindowCredentials);
        return new StreamableHttpMcpServer({
            authTokens: () => credentials.credentialsFor('mcp-streamable-http'), logger: log,
            streamGraceMs: options.streamGraceMs, idleSessionMs: options.idleSessionMs,
            configureSession: registerContributedTools(contributedToolsOf(context), 'mcp-streamable-http')
        });
    }).inSingletonScope();
    bind(McpEndpoint).toService(StreamableHttpMcpServer);
});

/**
 * Builds one window's graph in a container of its own (a child of `parent` when given), from this
 * module and the contributed `modules`.
 */
export function createWindowServer(options: WindowServerOptions, parent?: interfaces.Container, modules: readonly interfaces.ContainerModule[] = []): WindowServer {
    const container = parent ? parent.createChild() : new Container();
    container.bind(WindowServerOptions).toConstantValue(options);
    container.load(windowServerModule, ...modules);
    return container.get(WindowServer);
}
