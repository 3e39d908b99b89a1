import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * `McpServer.registerTool` with a plain signature: the SDK's generic one is too deep for the
 * compiler with our zod version; the schemas are zod objects it validates at run time all the same.
 */
export type LooseRegisterTool = (name: string, config: { description: string; inputSchema: object }, handler: (args: unknown) => Promise<CallToolResult>) => void;

export function toolError(message: string): CallToolResult {
    return { isError: true, content: [{ type: 'text', text: message }] };
}

export function textResult(...texts: string[]): CallToolResult {
    return { content: texts.map(text => ({ type: 'text' as const, text })) };
}
