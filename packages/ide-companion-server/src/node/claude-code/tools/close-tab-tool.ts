import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLAUDE_DIFF_ANSWER, ClaudeCloseTabArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { z } from 'zod';
import { DiffReviewManager } from '../../diff/diff-review-manager';
import { textResult } from '../../tools/mcp-tool-results';
import { ClaudeTool, ClaudeToolSession } from '../claude-tool';

/** Closes the session's diff of that tab name: its waiting openDiff answers DIFF_REJECTED (Claude Code decided in its terminal). */
@injectable()
export class CloseTabTool implements ClaudeTool<typeof ClaudeCloseTabArgumentsSchema> {
    readonly name = ClaudeToolName.CLOSE_TAB;
    readonly description = 'Closes the diff tab of that name.';
    readonly schema = ClaudeCloseTabArgumentsSchema;

    @inject(DiffReviewManager)
    protected readonly diffs: DiffReviewManager;

    async run({ tab_name }: z.infer<typeof ClaudeCloseTabArgumentsSchema>, { sessionId }: ClaudeToolSession): Promise<CallToolResult> {
        await this.diffs.close(sessionId, { tabName: tab_name });
        return textResult(CLAUDE_DIFF_ANSWER.TAB_CLOSED);
    }
}
