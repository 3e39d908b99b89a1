import { inject, injectable } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { IdeCompanionBackend } from '../../common/ide-companion-protocol';
import { CompanionLog } from '../companion-log';
import { OverwriteConfirmation } from './overwrite-confirmation';
import { ReviewedProposal } from './reviewed-proposal';

/**
 * A change applied without a review of its own (a proposal accepted automatically, an agent's write in
 * an auto-edit mode), kept for Undo for the rest of the session.
 */
export interface AppliedChange {
    readonly proposal: ReviewedProposal;
    /** The backend keeps the file's bytes from before under this id (IdeCompanionBackend.recordBeforeChange). */
    readonly undoId: string;
    readonly appliedAt: number;
}

/**
 * The window's list of changes applied without a review (Pending Changes shows them with Undo). The
 * bytes from before each one are kept by the backend's `AppliedChangeLedger`; this list names them.
 */
@injectable()
export class AppliedChanges {

    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(FileService) protected readonly fileService: FileService;
    @inject(OverwriteConfirmation) protected readonly confirmation: OverwriteConfirmation;
    @inject(MessageService) protected readonly messageService: MessageService;
    @inject(CompanionLog) protected readonly output: CompanionLog;

    protected readonly changes = new Map<string, AppliedChange>();
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    /**
     * Has the backend keep the file's bytes from before the change, then lists it. Throws (listing
     * nothing) when the backend cannot keep them: a path it refuses, a file too large.
     */
    async keep(proposal: ReviewedProposal): Promise<void> {
        this.recordApplied(proposal, await this.backend.recordBeforeChange(proposal.fileUri));
    }

    /**
     * Pace "accept": the proposal is accepted as proposed at once, once the backend keeps the file's
     * bytes from before, so that the user can still see it in Pending Changes and undo it. False (the
     * proposal is then reviewed as usual) when they cannot be kept.
     */
    async acceptUnseen(proposal: ReviewedProposal): Promise<boolean> {
        const fileUri = new URI(proposal.fileUri);
        try {
            await this.keep(proposal);
        } catch (error) {
            this.output.warn(nls.localize('theia-cli-companion/cli-core/noUndoSoReview',
                'Could not keep {0} for Undo ({1}); the change is opened for review instead of being accepted automatically.', fileUri.path.fsPath(), String(error)));
            return false;
        }
        this.output.info(nls.localize('theia-cli-companion/cli-core/acceptedAutomatically', 'Accepted the change {0} proposed to {1} (review pace: accept automatically)',
            proposal.origin.label, fileUri.path.fsPath()));
        return true;
    }

    /** Lists a change applied without its own review, whose bytes from before the backend keeps under `undoId`. */
    recordApplied(proposal: ReviewedProposal, undoId: string): void {
        this.changes.set(proposal.id, { proposal, undoId, appliedAt: Date.now() });
        this.onDidChangeEmitter.fire();
    }

    /** The changes applied without a review in this session, oldest first. */
    get applied(): AppliedChange[] {
        return [...this.changes.values()];
    }

    /**
     * Puts the file back as it was before an applied change. If it changed since (the user edited it,
     * or the CLI wrote something else), the user is asked first.
     */
    async undo(id: string): Promise<void> {
        const change = this.changes.get(id);
        if (!change) {
            return;
        }
        const fileUri = new URI(change.proposal.fileUri);
        const now = await this.fileService.read(fileUri).then(content => content.value, () => undefined);
        if (now !== undefined && now.replace(/^\uFEFF/, '') !== change.proposal.newContent.replace(/^\uFEFF/, '')) {
            const confirmed = await this.confirmation.confirm([nls.localize('theia-cli-companion/cli-core/undoChangedSince',
                '{0} changed since the change was applied; undoing puts back the text from before it, and the later changes are lost.', fileUri.path.base)]);
            if (!confirmed) {
                return;
            }
        }
        try {
            await this.backend.undoChange(change.undoId);
        } catch (error) {
            this.messageService.error(nls.localize('theia-cli-companion/cli-core/undoFailed', 'Could not undo the change to {0}: {1}', fileUri.path.base, String(error)));
            return;
        }
        this.changes.delete(id);
        this.output.info(nls.localize('theia-cli-companion/cli-core/undone', 'Undid the change {0} made to {1}', change.proposal.origin.label, fileUri.path.fsPath()));
        this.onDidChangeEmitter.fire();
    }
}
