import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClaudeNoArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { DiffReviewManager } from '../../diff/diff-review-manager';
import { textResult } from '../../tools/mcp-tool-results';
import { ClaudeTool, ClaudeToolSession } from '../claude-tool';

/** Closes every diff of the session (their waiting openDiff calls answer DIFF_REJECTED); answers how many. */
@injectable()
export class CloseAllDiffTabsTool implements ClaudeTool<typeof ClaudeNoArgumentsSchema> {
    readonly name = ClaudeToolName.CLOSE_ALL_DIFF_TABS;
    readonly description = 'Closes every diff this session opened.';
    readonly schema = ClaudeNoArgumentsSchema;

    @inject(DiffReviewManager)
    protected readonly diffs: DiffReviewManager;

    async run(_args: unknown, { sessionId }: ClaudeToolSession): Promise<CallToolResult> {
        return textResult(`CLOSED_${(await this.diffs.close(sessionId, 'all')).length}_DIFF_TABS`);
    }
}
