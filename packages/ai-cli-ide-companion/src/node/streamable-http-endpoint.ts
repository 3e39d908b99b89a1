import { CompanionMcpServer, CompanionMcpServerOptions } from './companion-mcp-server';
import { WindowEndpointServices } from './window-endpoint-services';

/**
 * The window's Streamable HTTP endpoint: Gemini CLI and Qwen Code get the IDE context and diff tools,
 * the window's ACP agents the context tools (they ask permission with diffs of their own).
 */
export function createStreamableHttpEndpoint(
    window: WindowEndpointServices, limits: Pick<CompanionMcpServerOptions, 'streamGraceMs' | 'idleSessionMs'>
): CompanionMcpServer {
    return new CompanionMcpServer({
        ...limits,
        authTokens: () => window.credentials('mcp-streamable-http'), logger: window.logger,
        configureSession: (mcp, sessionId, credential) => {
            window.contextTools.registerTools(mcp);
            if (credential.flavour) {
                window.diffs.registerTools(mcp, sessionId);
            }
        }
    });
}
