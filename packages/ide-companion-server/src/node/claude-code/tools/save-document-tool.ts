import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClaudeDocumentArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { z } from 'zod';
import { fileUriInWorkspace } from '../../tools/ide-context-tools';
import { jsonResult } from '../../tools/mcp-tool-results';
import { WindowContext } from '../../window-context';
import { ClaudeTool } from '../claude-tool';

@injectable()
export class SaveDocumentTool implements ClaudeTool<typeof ClaudeDocumentArgumentsSchema> {
    readonly name = ClaudeToolName.SAVE_DOCUMENT;
    readonly description = 'Saves the file\'s open editor.';
    readonly schema = ClaudeDocumentArgumentsSchema;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    async run({ filePath }: z.infer<typeof ClaudeDocumentArgumentsSchema>): Promise<CallToolResult> {
        const state = await this.windowContext.window.saveDocument(await fileUriInWorkspace(filePath, this.windowContext.roots));
        return jsonResult(state.isOpen
            ? { success: true, filePath, saved: !state.isDirty, message: state.isDirty ? 'Document could not be saved' : 'Document saved successfully' }
            : { success: false, message: `Document not open: ${filePath}` });
    }
}
