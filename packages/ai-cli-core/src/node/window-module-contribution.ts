import type { interfaces } from '@theia/core/shared/inversify';
import type { CliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';

/**
 * What an extension adds to every window's companion: the CLI flavours the window advertises
 * (discovery files, terminal variables) and the bindings of the window's graph they need, such as
 * an `McpEndpoint` for their transport or an `McpToolContribution`. Bound in the backend's
 * container (`bind(WindowModuleContribution).toConstantValue(…)`); the window registry collects them.
 */
export const WindowModuleContribution = Symbol('WindowModuleContribution');
export interface WindowModuleContribution {
    readonly flavours?: readonly CliFlavour[];
    /**
     * The module loaded into each window's container. Called on the first window, not at backend
     * start: endpoint and tool modules load the MCP SDK, a large part of the backend's startup cost.
     */
    loadModule?(): Promise<interfaces.ContainerModule>;
}
