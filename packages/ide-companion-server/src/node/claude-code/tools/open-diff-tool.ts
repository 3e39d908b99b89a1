import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLAUDE_DIFF_ANSWER, ClaudeOpenDiffArgumentsSchema, ClaudeToolName } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { z } from 'zod';
import { DiffReviewManager } from '../../diff/diff-review-manager';
import { textResult, toolError } from '../../tools/mcp-tool-results';
import { ClaudeTool, ClaudeToolSession } from '../claude-tool';

/**
 * Claude Code's blocking openDiff: shows the proposal and answers when it settles, FILE_SAVED and the
 * final text when the user accepted, DIFF_REJECTED otherwise (rejected, closed by close_tab, replaced,
 * the session or the window gone).
 */
@injectable()
export class OpenDiffTool implements ClaudeTool<typeof ClaudeOpenDiffArgumentsSchema> {
    readonly name = ClaudeToolName.OPEN_DIFF;
    readonly description = 'Shows a proposed change as an editable Monaco diff and waits for the user: FILE_SAVED and the final text, or DIFF_REJECTED.';
    readonly schema = ClaudeOpenDiffArgumentsSchema;

    @inject(DiffReviewManager)
    protected readonly diffs: DiffReviewManager;

    async run({ new_file_path, new_file_contents, tab_name }: z.infer<typeof ClaudeOpenDiffArgumentsSchema>, { sessionId }: ClaudeToolSession): Promise<CallToolResult> {
        const proposal = await this.diffs.propose({ sessionId, filePath: new_file_path, newContent: new_file_contents, tabName: tab_name });
        if ('refused' in proposal) {
            return toolError(proposal.refused);
        }
        const { answer } = await proposal.shown.settled;
        return answer.accepted ? textResult(CLAUDE_DIFF_ANSWER.SAVED, answer.content) : textResult(CLAUDE_DIFF_ANSWER.REJECTED, tab_name);
    }
}
