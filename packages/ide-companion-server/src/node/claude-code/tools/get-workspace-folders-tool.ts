import * as path from 'path';
import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClaudeNoArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { FileUri } from '../../file-uri';
import { jsonResult } from '../../tools/mcp-tool-results';
import { WindowContext } from '../../window-context';
import { ClaudeTool } from '../claude-tool';

@injectable()
export class GetWorkspaceFoldersTool implements ClaudeTool<typeof ClaudeNoArgumentsSchema> {
    readonly name = ClaudeToolName.GET_WORKSPACE_FOLDERS;
    readonly description = 'The workspace folders of the Theia window.';
    readonly schema = ClaudeNoArgumentsSchema;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    async run(): Promise<CallToolResult> {
        const roots = this.windowContext.roots;
        return jsonResult({
            success: true,
            folders: roots.map(root => ({ name: path.basename(root), uri: FileUri.create(root).toString(), path: root })),
            rootPath: roots[0] ?? null
        });
    }
}
