import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** The Claude Code session a tool runs for. */
export interface ClaudeToolSession {
    readonly sessionId: string;
}

/**
 * One tool of Claude Code's IDE contract (a class per tool in `tools/`), answered in the shapes the
 * editors that serve it use: one text block, mostly JSON; 0-based positions. `ClaudeIdeTools`
 * registers every bound `ClaudeTool` for each Claude Code session.
 */
export const ClaudeTool = Symbol('ClaudeTool');
export interface ClaudeTool<S extends z.ZodTypeAny = z.ZodTypeAny> {
    readonly name: string;
    readonly description: string;
    readonly schema: S;
    /** Runs with the arguments its schema accepted; what it throws is the tool error Claude Code gets. */
    run(args: z.infer<S>, session: ClaudeToolSession): Promise<CallToolResult>;
}
