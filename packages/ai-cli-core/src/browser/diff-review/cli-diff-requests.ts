import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { DiffOutcome, DiffProposal, fromRpcText, RpcText, toRpcText } from '@theia-cli-companion/ide-companion-server/lib/common';
import { IdeCompanionBackend } from '../../common/ide-companion-protocol';
import { DIFF_WRITE_ON_ACCEPT_PREF } from '../../common/ide-companion-preferences';
import { CompanionLog } from '../companion-log';
import { ExecutionSettings } from '../untrusted-workspace/execution-settings';
import { DiffReviewService } from './diff-review-service';
import { ReviewedProposal, ReviewOutcome } from './reviewed-proposal';
import { frontendTimingMark } from '../timing/frontend-timing-mark';

/**
 * A CLI's proposals, as the backend forwards them (`openDiff`/`closeDiff` of the window's RPC client):
 * each is reviewed like any other, and its outcome goes back to the CLI's session through
 * `IdeCompanionBackend.resolveDiff`, once; a proposal the CLI closed itself is answered to nobody.
 */
@injectable()
export class CliDiffRequests {

    @inject(DiffReviewService) protected readonly reviews: DiffReviewService;
    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(MessageService) protected readonly messageService: MessageService;
    @inject(CompanionLog) protected readonly output: CompanionLog;
    @inject(ILogger) @named('ai-cli-core:CliDiffRequests') protected readonly logger: ILogger;

    /** Resolves once the proposal is shown, queued or accepted; rejects when it cannot be opened (the CLI is told so). */
    async openDiff(wire: DiffProposal): Promise<void> {
        frontendTimingMark('diff:received');
        const review = await this.reviews.review({ ...wire, newContent: fromRpcText(wire.newContent) });
        review.outcome.then(outcome => this.answer(review.proposal, outcome)).catch(error => this.logger.error(`Diff ${wire.id}: ${error}`));
    }

    /** Closes the review without an answer (the CLI decided); returns the right side's current text. */
    async closeDiff(id: string): Promise<RpcText | undefined> {
        const text = await this.reviews.withdraw(id);
        return text === undefined ? undefined : toRpcText(text);
    }

    /** The CLI hears the answer; when the user's settings say so, the IDE first writes a text the user accepted. */
    protected async answer(proposal: ReviewedProposal, outcome: ReviewOutcome): Promise<void> {
        if (outcome.kind === 'withdrawn') {
            return;
        }
        if (outcome.kind === 'accepted' && !outcome.automatically && this.settings.get<boolean>(DIFF_WRITE_ON_ACCEPT_PREF, 'writes') === true) {
            await this.writeAccepted(proposal, outcome.content);
        }
        const wire: DiffOutcome = outcome.kind === 'accepted' ? { accepted: true, content: toRpcText(outcome.content) } : { accepted: false };
        try {
            await this.backend.resolveDiff(proposal.id, wire);
        } catch (error) {
            this.logger.error(`Could not report the outcome of diff ${proposal.id}: ${error}`);
            this.messageService.error(nls.localize('theia-cli-companion/cli-core/diffReportFailed', 'Could not tell the CLI the outcome of the diff: {0}', String(error)));
        }
    }

    /**
     * Writes the accepted text from the IDE before the CLI does (the same text, so its write changes nothing):
     * by the backend, inside the workspace folders only, as every other write of the IDE's.
     */
    protected async writeAccepted(proposal: ReviewedProposal, content: string): Promise<void> {
        const fileUri = new URI(proposal.fileUri);
        try {
            await this.backend.writeAccepted(proposal.fileUri, toRpcText(content));
            this.output.info(nls.localize('theia-cli-companion/cli-core/diffWritten', 'Wrote the accepted change to {0}', fileUri.path.fsPath()));
        } catch (error) {
            this.output.error(nls.localize('theia-cli-companion/cli-core/diffWriteFailed',
                'Could not write the accepted change to {0}: {1}', fileUri.path.fsPath(), String(error)));
            this.messageService.error(nls.localize('theia-cli-companion/cli-core/diffWriteFailedUser',
                'Could not write the accepted change to {0}; the CLI will try: {1}', fileUri.path.base, String(error)));
        }
    }
}
