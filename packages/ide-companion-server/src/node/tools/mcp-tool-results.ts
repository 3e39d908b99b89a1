import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { WindowLogger } from '../window-logger';
import { describeError, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { sanitizeClientText } from '../../common/client-text';

/** Reasons in log lines quote what a client sent (paths, argument names): cleaned, and cut here. */
const MAX_LOGGED_REASON_LENGTH = 1000;

/**
 * `McpServer.registerTool` with a plain signature: the SDK's generic one is too deep for the
 * compiler with our zod version; the schemas are zod objects it validates at run time all the same.
 */
type LooseRegisterTool = (name: string, config: { description: string; inputSchema: object }, handler: (args: unknown) => Promise<CallToolResult>) => void;

export function toolError(message: string): CallToolResult {
    return { isError: true, content: [{ type: 'text', text: message }] };
}

export function textResult(...texts: string[]): CallToolResult {
    return { content: texts.map(text => ({ type: 'text' as const, text })) };
}

/** One text block of JSON, as most IDE tools answer. */
export function jsonResult(value: unknown): CallToolResult {
    return textResult(JSON.stringify(value));
}

/**
 * A registrar of tools whose arguments are validated by their zod schema first (a failure is a tool
 * error naming each bad field, logged) and whose exceptions become tool errors: the session goes on.
 */
export function validatedTools(mcp: McpServer, logger: WindowLogger) {
    const register = mcp.registerTool.bind(mcp) as unknown as LooseRegisterTool;
    return <S extends z.ZodTypeAny>(name: string, description: string, schema: S, run: (args: z.infer<S>) => Promise<CallToolResult>) =>
        register(name, { description, inputSchema: schema }, async input => {
            const parsed = schema.safeParse(input ?? {});
            if (!parsed.success) {
                const problems = formatZodIssues(parsed.error, 'arguments');
                logger.warn(`Refused a ${name} call with invalid arguments: ${sanitizeClientText(problems, MAX_LOGGED_REASON_LENGTH)}`);
                return toolError(`Invalid ${name} arguments: ${problems}`);
            }
            try {
                return await run(parsed.data);
            } catch (error) {
                logger.warn(`The ${name} tool failed: ${sanitizeClientText(describeError(error), MAX_LOGGED_REASON_LENGTH)}`);
                return toolError(describeError(error));
            }
        });
}
