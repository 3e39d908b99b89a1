import { inject, injectable } from 'inversify';
import { CloseDiffArgumentsSchema, IdeNotification, IdeNotificationSchema, IdeToolName, OpenDiffArgumentsSchema } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { DiffReviewManager } from './diff-review-manager';
import { McpSessionContext, McpToolContribution } from '../tools/mcp-tool-contribution';
import { LooseRegisterTool } from '../tools/mcp-tool-results';

/**
 * Gemini CLI's and Qwen Code's diff tools, for the sessions a CLI opened with its discovery secret
 * (an ACP agent asks permission with diffs of its own): `openDiff` answers at once, the outcome comes
 * later as a notification to that session.
 */
@injectable()
export class IdeDiffTools implements McpToolContribution {

    @inject(DiffReviewManager)
    protected readonly diffs: DiffReviewManager;

    registerTools({ mcp, sessionId, credential, transport }: McpSessionContext): void {
        if (transport !== 'mcp-streamable-http' || !credential.flavour) {
            return;
        }
        const notify = async (notification: IdeNotification) => {
            try {
                await mcp.server.notification(IdeNotificationSchema.parse(notification));
                return true;
            } catch {
                // The session is gone (its transport closed): the diff manager says so.
                return false;
            }
        };
        // The SDK's generic signature is too deep for the compiler with our zod version; the
        // schemas are zod objects it validates at run time all the same.
        const registerTool = mcp.registerTool.bind(mcp) as unknown as LooseRegisterTool;
        registerTool(IdeToolName.OPEN_DIFF, {
            description: 'Opens an editable diff of a proposed change to a file in the Theia window. Answers at once; the outcome arrives as ide/diffAccepted or ide/diffRejected.',
            inputSchema: OpenDiffArgumentsSchema
        }, args => this.diffs.openDiff(sessionId, args, notify));
        registerTool(IdeToolName.CLOSE_DIFF, {
            description: 'Closes the diff view of a file and returns the text of its proposed side as {"content": string | null}.',
            inputSchema: CloseDiffArgumentsSchema
        }, args => this.diffs.closeDiff(sessionId, args));
    }
}
