import { inject, injectable } from 'inversify';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
    CloseDiffArguments, CloseDiffArgumentsSchema, IdeNotificationMethod, IdeNotificationSchema, IdeToolName, OpenDiffArguments, OpenDiffArgumentsSchema
} from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { McpSessionContext, McpToolContribution } from '../tools/mcp-tool-contribution';
import { jsonResult, toolError, validatedTools } from '../tools/mcp-tool-results';
import { WindowContext } from '../window-context';
import { DiffAnswer, DiffReviewManager, DiffSettlementReason, PendingDiff, ProposalResult } from './diff-review-manager';
import { timingMark } from '@theia-cli-companion/cli-process/lib/node';

/**
 * The settlements a Gemini CLI or Qwen Code session is notified of: not its own closeDiff (answered by
 * closeDiff itself, unless suppressed), not the end of its session (nobody is left to tell).
 */
const NOTIFIED_REASONS: ReadonlySet<DiffSettlementReason> = new Set<DiffSettlementReason>(['answered', 'replaced', 'window-closed']);

/**
 * Gemini CLI's and Qwen Code's diff tools, for the sessions a CLI opened with its discovery secret
 * (an ACP agent asks permission with diffs of its own): `openDiff` answers at once, the outcome comes
 * later as an `ide/diffAccepted` or `ide/diffRejected` notification to that session.
 */
@injectable()
export class IdeDiffTools implements McpToolContribution {

    @inject(DiffReviewManager)
    protected readonly diffs: DiffReviewManager;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    registerTools({ mcp, sessionId, credential, transport }: McpSessionContext): void {
        if (transport !== 'mcp-streamable-http' || !credential.flavour) {
            return;
        }
        const tool = validatedTools(mcp, this.windowContext.log);
        tool(IdeToolName.OPEN_DIFF,
            'Opens an editable diff of a proposed change to a file in the Theia window. Answers at once; the outcome arrives as ide/diffAccepted or ide/diffRejected.',
            OpenDiffArgumentsSchema, args => this.openDiff(mcp, sessionId, args));
        tool(IdeToolName.CLOSE_DIFF, 'Closes the diff view of a file and returns the text of its proposed side as {"content": string | null}.',
            CloseDiffArgumentsSchema, args => this.closeDiff(mcp, sessionId, args));
    }

    protected async openDiff(mcp: McpServer, sessionId: string, { filePath, newContent }: OpenDiffArguments): Promise<CallToolResult> {
        timingMark('diff:tool-called');
        const proposed = this.diffs.propose({ sessionId, filePath, newContent });
        // Tracked before the window has shown it: a window closing meanwhile still waits for this rejection to be sent.
        this.diffs.trackDelivery(this.notifyWhenSettled(mcp, proposed));
        const proposal = await proposed;
        return 'refused' in proposal ? toolError(proposal.refused) : { content: [] };
    }

    protected async notifyWhenSettled(mcp: McpServer, proposed: Promise<ProposalResult>): Promise<void> {
        const proposal = await proposed;
        if ('refused' in proposal) {
            return;
        }
        const { reason, answer } = await proposal.shown.settled;
        if (NOTIFIED_REASONS.has(reason)) {
            await this.notify(mcp, proposal.shown, answer);
        }
    }

    /** Closes the session's own proposal for the file (another session's stays): its text, or null when there was none. */
    protected async closeDiff(mcp: McpServer, sessionId: string, { filePath, suppressNotification }: CloseDiffArguments): Promise<CallToolResult> {
        const [closed] = await this.diffs.close(sessionId, { filePath });
        if (closed && !suppressNotification) {
            await this.notify(mcp, closed.diff, { accepted: false });
        }
        // None: the user answered in the IDE first, or there never was one (from this session).
        return jsonResult({ content: closed?.shownText ?? null });
    }

    protected async notify(mcp: McpServer, diff: PendingDiff, answer: DiffAnswer): Promise<void> {
        const notification = answer.accepted
            ? { method: IdeNotificationMethod.DIFF_ACCEPTED, params: { filePath: diff.filePath, content: answer.content } }
            : { method: IdeNotificationMethod.DIFF_REJECTED, params: { filePath: diff.filePath } };
        try {
            await mcp.server.notification(IdeNotificationSchema.parse(notification));
        } catch {
            // The session is gone (its transport closed).
            this.windowContext.log.warn(`The outcome of diff ${diff.id} for ${diff.loggedPath} could not be delivered: its CLI session is gone`);
        }
    }
}
