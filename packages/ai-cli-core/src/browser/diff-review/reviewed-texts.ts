import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { reviewedText } from '@theia-cli-companion/ide-companion-server/lib/common';
import { TextModels } from '../text-models';
import { ReviewedProposal } from './reviewed-proposal';

/** The right side of a review as it stands: its text, and whether the user changed it. */
export interface ShownText {
    readonly text: string;
    readonly edited: boolean;
}

/** What a review's right side shows, and the text its proposer is told it holds. */
@injectable()
export class ReviewedTexts {

    @inject(TextModels) protected readonly textModels: TextModels;
    @inject(FileService) protected readonly fileService: FileService;
    @inject(ILogger) @named('ai-cli-core:DiffReviewService') protected readonly logger: ILogger;

    /**
     * The right side's text, and whether the user changed it. Nothing can save the proposal, so its
     * model stays dirty from the user's first edit until it is undone back to the proposal.
     */
    async shown(proposal: ReviewedProposal, proposalUri: URI): Promise<ShownText | undefined> {
        try {
            const { text, dirty } = await this.textModels.read(proposalUri);
            return { text, edited: dirty };
        } catch (error) {
            this.logger.warn(`Could not read the proposed text of diff ${proposal.id}: ${error}`);
            return undefined;
        }
    }

    /**
     * What the proposer is told the right side holds. An unedited proposal is reported verbatim: Monaco's
     * model of it may differ in line endings, a BOM, or even lines (a lone CR), none of it the user's doing.
     * An edited one (typed, or changes rejected) keeps the proposal's and the file's own line endings
     * where its lines came from them.
     */
    async reported(proposal: ReviewedProposal, shown: ShownText): Promise<string> {
        if (!shown.edited) {
            return proposal.newContent;
        }
        return reviewedText({ proposal: proposal.newContent, original: await this.originalText(proposal), shown: shown.text });
    }

    /** The file's text on disk, line endings as they are: where a rejected change's lines come from. */
    protected async originalText(proposal: ReviewedProposal): Promise<string | undefined> {
        if (!proposal.fileExists) {
            return undefined;
        }
        try {
            return (await this.fileService.read(new URI(proposal.fileUri))).value;
        } catch (error) {
            this.logger.warn(`Could not read ${proposal.fileUri} for the reviewed text; restored lines take the editor's line ending: ${error}`);
            return undefined;
        }
    }
}
