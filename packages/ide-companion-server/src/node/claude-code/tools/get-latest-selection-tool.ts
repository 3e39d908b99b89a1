import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClaudeNoArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { jsonResult } from '../../tools/mcp-tool-results';
import { ClaudeTool } from '../claude-tool';
import { ClaudeWebSocketServer } from '../claude-websocket-server';

@injectable()
export class GetLatestSelectionTool implements ClaudeTool<typeof ClaudeNoArgumentsSchema> {
    readonly name = ClaudeToolName.GET_LATEST_SELECTION;
    readonly description = 'The most recent selection in any editor of the window; 0-based.';
    readonly schema = ClaudeNoArgumentsSchema;

    /** Where the selections Claude Code was told about are kept. */
    @inject(ClaudeWebSocketServer)
    protected readonly endpoint: ClaudeWebSocketServer;

    async run(): Promise<CallToolResult> {
        const selection = this.endpoint.latestSelection;
        return jsonResult(selection ? { success: true, ...selection } : { success: false, message: 'No selection available' });
    }
}
