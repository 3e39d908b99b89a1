import { inject, injectable, named } from 'inversify';
import { Contributions } from '../contributions';
import { McpSessionContext, McpToolContribution } from '../tools/mcp-tool-contribution';
import { validatedTools } from '../tools/mcp-tool-results';
import { WindowContext } from '../window-context';
import { ClaudeTool } from './claude-tool';

/**
 * The tools of Claude Code's IDE contract, for the sessions of Claude Code's WebSocket endpoint: every
 * bound `ClaudeTool` (see `claudeWindowModule`), its arguments validated by its schema.
 */
@injectable()
export class ClaudeIdeTools implements McpToolContribution {

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    @inject(Contributions) @named(ClaudeTool)
    protected readonly tools: Contributions<ClaudeTool>;

    registerTools({ mcp, sessionId, transport }: McpSessionContext): void {
        if (transport !== 'claude-code-websocket') {
            return;
        }
        const register = validatedTools(mcp, this.windowContext.log);
        for (const tool of this.tools.getContributions()) {
            register(tool.name, tool.description, tool.schema, args => tool.run(args, { sessionId }));
        }
    }
}
