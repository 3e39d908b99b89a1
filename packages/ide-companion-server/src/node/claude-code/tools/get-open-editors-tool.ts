import * as path from 'path';
import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClaudeNoArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { FileUri } from '../../file-uri';
import { jsonResult } from '../../tools/mcp-tool-results';
import { WindowContext } from '../../window-context';
import { ClaudeTool } from '../claude-tool';

/** The window's open files (those inside the workspace folders), as Claude's tabs. */
@injectable()
export class GetOpenEditorsTool implements ClaudeTool<typeof ClaudeNoArgumentsSchema> {
    readonly name = ClaudeToolName.GET_OPEN_EDITORS;
    readonly description = 'The files open in the Theia window, most recently used first.';
    readonly schema = ClaudeNoArgumentsSchema;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    async run(): Promise<CallToolResult> {
        return jsonResult({
            tabs: (this.windowContext.context?.workspaceState?.openFiles ?? []).map(file => ({
                uri: FileUri.create(file.path).toString(), isActive: !!file.isActive, label: path.basename(file.path), fileName: file.path
            }))
        });
    }
}
