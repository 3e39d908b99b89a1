import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClaudeOpenFileArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { readFileBounded } from '@theia-cli-companion/safe-files/lib/node';
import { z } from 'zod';
import { fileUriInWorkspace } from '../../tools/ide-context-tools';
import { jsonResult, textResult } from '../../tools/mcp-tool-results';
import { WindowContext } from '../../window-context';
import { ClaudeTool } from '../claude-tool';

/** Files searched for `startText` at most: a larger one (or a pipe, a device) is not searched. */
const MAX_OPEN_FILE_SEARCH_BYTES = 16 * 1024 * 1024;

@injectable()
export class OpenFileTool implements ClaudeTool<typeof ClaudeOpenFileArgumentsSchema> {
    readonly name = ClaudeToolName.OPEN_FILE;
    readonly description = 'Opens the file in the Theia editor, optionally selecting lines (1-based) or the text from startText to endText.';
    readonly schema = ClaudeOpenFileArgumentsSchema;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    async run(args: z.infer<typeof ClaudeOpenFileArgumentsSchema>): Promise<CallToolResult> {
        const fileUri = await fileUriInWorkspace(args.filePath, this.windowContext.roots);
        const range = args.startText ? await findTextRange(args.filePath, this.windowContext.roots, args.startText, args.endText) : undefined;
        const startLine = range?.startLine ?? args.startLine;
        const endLine = range?.endLine ?? args.endLine ?? startLine;
        await this.windowContext.window.openFile({ fileUri, startLine, endLine, select: startLine !== undefined && (range !== undefined || args.endLine !== undefined) });
        return args.makeFrontmost === false
            ? jsonResult({ success: true, filePath: args.filePath, message: `Opened file: ${args.filePath}` })
            : textResult(`Opened file: ${args.filePath}`);
    }
}

/**
 * The 1-based lines from the first line containing `startText` through the next containing `endText`. The file is
 * read bounded, inside the roots, never a pipe or a device (see readFileBounded); one that cannot be read is an error.
 */
async function findTextRange(
    filePath: string, roots: readonly string[], startText: string, endText?: string
): Promise<{ startLine: number; endLine: number } | undefined> {
    const read = await readFileBounded(filePath, { roots, maxBytes: MAX_OPEN_FILE_SEARCH_BYTES, followLink: true });
    if (read.kind === 'unreadable') {
        throw new Error(`Cannot search ${filePath} for startText: it ${read.reason}`);
    }
    const lines = (read.kind === 'content' ? read.content.toString('utf8') : '').split(/\r?\n/);
    const start = lines.findIndex(line => line.includes(startText));
    if (start < 0) {
        return undefined;
    }
    const end = endText ? lines.findIndex((line, index) => index >= start && line.includes(endText)) : start;
    return { startLine: start + 1, endLine: (end < 0 ? start : end) + 1 };
}
