import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClaudeDocumentArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { z } from 'zod';
import { fileUriInWorkspace } from '../../tools/ide-context-tools';
import { jsonResult } from '../../tools/mcp-tool-results';
import { WindowContext } from '../../window-context';
import { ClaudeTool } from '../claude-tool';

@injectable()
export class CheckDocumentDirtyTool implements ClaudeTool<typeof ClaudeDocumentArgumentsSchema> {
    readonly name = ClaudeToolName.CHECK_DOCUMENT_DIRTY;
    readonly description = 'Whether the file has unsaved changes in an editor of the window.';
    readonly schema = ClaudeDocumentArgumentsSchema;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    async run({ filePath }: z.infer<typeof ClaudeDocumentArgumentsSchema>): Promise<CallToolResult> {
        const state = await this.windowContext.window.getDocumentState(await fileUriInWorkspace(filePath, this.windowContext.roots));
        return jsonResult(state.isOpen
            ? { success: true, filePath, isDirty: state.isDirty, isUntitled: false }
            : { success: false, message: `Document not open: ${filePath}` });
    }
}
