import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import { Widget } from '@theia/core/lib/browser/widgets/widget';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { close as closeWithoutPrompt, SaveableWidget } from '@theia/core/lib/browser/saveable';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { reviewedText, fromRpcText, toRpcText, DiffOutcome, DiffProposal } from '@theia-cli-companion/ide-companion-server/lib/common';
import { TerminalWidget } from '@theia/terminal/lib/browser/base/terminal-widget';
import { IdeCompanionBackend } from '../../common/ide-companion-protocol';
import { DiffRequestHandler } from '../ide-companion-frontend-client-impl';
import { DIFF_FOCUS_PREF, DIFF_WRITE_ON_ACCEPT_PREF, IdeCompanionPreferences, REVIEW_NOTIFY_QUEUED_PREF } from '../../common/ide-companion-preferences';
import { Disposable } from '@theia/core/lib/common/disposable';
import { CompanionLog } from '../companion-log';
import { ReviewDiffRegistry } from '../review-changes/review-diff-registry';
import { ReviewPaceSettings } from '../pending-review/review-pace-settings';
import { ExecutionSettings } from '../untrusted-workspace/execution-settings';
import { TextModels } from '../text-models';
import { OverwriteConfirmation } from './overwrite-confirmation';
import { PROPOSAL_SCHEME, EMPTY_ORIGINAL_SCHEME, ProposedContentResource, ProposedContentResourceResolver } from './proposed-content-resource-resolver';

/** A proposal as the window reviews it: its text decoded from the RPC. */
export type ReviewedProposal = Omit<DiffProposal, 'newContent'> & { readonly newContent: string };

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

/** Who hears the user's answer to a review opened in the window itself rather than by a CLI through the backend. */
export type DiffOutcomeHandler = (outcome: { accepted: true; content: string } | { accepted: false }) => void;

interface ReviewedDiff {
    readonly proposal: ReviewedProposal;
    readonly onOutcome?: DiffOutcomeHandler;
    readonly proposalUri: URI;
    /** The file's etag when the diff opened ('absent' for a new file): a change means someone else wrote it. */
    etagAtOpen?: string;
    widget?: Widget;
    resolved: boolean;
    /** Arrived while the pace was "queue": closing its editor puts it back in the queue rather than rejecting it. */
    queued?: boolean;
    /** An accept is under way (it may be asking the user): a second one would answer the CLI twice. */
    settling?: boolean;
    /** Its entry among the window's review diffs (for the change commands). */
    registration?: Disposable;
}

/**
 * The window's side of diff review: opens each proposal in Theia's Monaco diff editor (left the
 * file as it is now, right the editable proposal) and reports the user's answer once.
 * Only the user's explicit decision settles a proposal. Accept: Ctrl/Cmd+S in the review (a
 * keybinding of the Accept command, not a save), the ✓ action or the Accept command. Reject: the
 * ✗ action, the Reject command, or closing the tab. No save settles it: the proposal cannot be
 * saved at all (see {@link ProposedContentResource}), so auto-save, *Save All* and other saves
 * leave it pending with the user's edits in place.
 */
@injectable()
export class DiffReviewService implements DiffRequestHandler {

    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(TextModels) protected readonly textModels: TextModels;
    @inject(OverwriteConfirmation) protected readonly confirmation: OverwriteConfirmation;
    @inject(ProposedContentResourceResolver) protected readonly resources: ProposedContentResourceResolver;
    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(MessageService) protected readonly messageService: MessageService;
    @inject(FileService) protected readonly fileService: FileService;
    @inject(ILogger) @named('ai-cli-core:DiffReviewService') protected readonly logger: ILogger;
    @inject(IdeCompanionPreferences) protected readonly preferences: IdeCompanionPreferences;
    @inject(CompanionLog) protected readonly output: CompanionLog;
    @inject(ReviewDiffRegistry) protected readonly registry: ReviewDiffRegistry;
    @inject(ReviewPaceSettings) protected readonly pace: ReviewPaceSettings;
    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;

    protected readonly diffs = new Map<string, ReviewedDiff>();
    protected readonly appliedChanges = new Map<string, AppliedChange>();
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    get pending(): ReviewedProposal[] {
        return [...this.diffs.values()].filter(diff => !diff.resolved).map(diff => diff.proposal);
    }

    async openDiff(wire: DiffProposal): Promise<void> {
        return this.review({ ...wire, newContent: fromRpcText(wire.newContent) });
    }

    /**
     * Opens a review whose answer goes to `onOutcome` instead of a CLI session (an ACP agent's
     * permission request, say); everything else is the same review the CLIs get.
     */
    async review(proposal: ReviewedProposal, onOutcome?: DiffOutcomeHandler): Promise<void> {
        const pace = this.pace.of(proposal.origin);
        if (pace === 'accept' && await this.acceptAutomatically(proposal, onOutcome)) {
            return;
        }
        const fileUri = new URI(proposal.fileUri);
        const proposalUri = new URI(`${PROPOSAL_SCHEME}:${fileUri.path.toString()}`).withQuery(proposal.id);
        const diff: ReviewedDiff = { proposal, proposalUri, resolved: false, onOutcome, queued: pace === 'queue' };
        diff.etagAtOpen = (await this.fileService.resolve(fileUri).catch(() => undefined))?.etag ?? 'absent';
        this.diffs.set(proposal.id, diff);
        diff.registration = this.registry.add({
            id: proposal.id, groupId: proposal.origin.groupId, widget: () => diff.widget, open: () => this.open(proposal.id)
        });
        this.resources.register(new ProposedContentResource(proposalUri, proposal.newContent));
        if (diff.queued) {
            // Nothing opens and nothing takes the focus: Pending Changes and the status bar count show it.
            this.onDidChangeEmitter.fire();
            this.noticeQueued(diff);
            return;
        }
        const focus = this.preferences[DIFF_FOCUS_PREF];
        // By default, do not take the keyboard from a terminal the user is typing in (the CLI's own, usually).
        const mode = focus === 'always' ? 'activate' : focus === 'never' || this.shell.activeWidget instanceof TerminalWidget ? 'reveal' : 'activate';
        try {
            await this.openEditor(diff, mode);
        } catch (error) {
            this.forget(diff);
            throw error;
        }
        this.onDidChangeEmitter.fire();
    }

    protected async openEditor(diff: ReviewedDiff, mode: 'activate' | 'reveal'): Promise<Widget> {
        const { proposal, proposalUri } = diff;
        const fileUri = new URI(proposal.fileUri);
        const left = proposal.fileExists ? fileUri : new URI(`${EMPTY_ORIGINAL_SCHEME}:${fileUri.path.toString()}`).withQuery(proposal.id);
        const label = nls.localize('theia-cli-companion/cli-core/diffTitle', '{0} ↔ proposed by {1}', fileUri.path.base, proposal.proposedBy);
        const widget = await open(this.openerService, DiffUris.encode(left, proposalUri, label), { mode }) as Widget | undefined;
        if (!widget) {
            throw new Error('no editor opened');
        }
        diff.widget = widget;
        this.registry.changed();
        this.closeWithoutSavePrompt(widget);
        widget.disposed.connect(() => {
            if (diff.widget === widget && !diff.resolved && diff.queued) {
                // Closing a queued review's editor only puts it back in the queue.
                diff.widget = undefined;
                this.registry.changed();
                this.onDidChangeEmitter.fire();
                return;
            }
            if (!diff.resolved) {
                this.report(diff, { accepted: false });
            }
            this.forget(diff);
        });
        return widget;
    }

    protected noticeQueued(diff: ReviewedDiff): void {
        if (!this.preferences[REVIEW_NOTIFY_QUEUED_PREF]) {
            return;
        }
        const review = nls.localize('theia-cli-companion/cli-core/reviewNow', 'Review');
        void this.messageService.info(nls.localize('theia-cli-companion/cli-core/queued', '{0} proposes a change to {1}; it waits in Pending Changes.',
            diff.proposal.origin.label, new URI(diff.proposal.fileUri).path.base), review).then(answer => {
            if (answer === review) {
                void this.open(diff.proposal.id);
            }
        });
    }

    /**
     * Pace "accept": the proposal is accepted as proposed at once, once the backend keeps the file's
     * bytes from before, so that the user can still see it in Pending Changes and undo it. False (the
     * proposal is then reviewed as usual) when they cannot be kept.
     */
    protected async acceptAutomatically(proposal: ReviewedProposal, onOutcome: DiffOutcomeHandler | undefined): Promise<boolean> {
        const fileUri = new URI(proposal.fileUri);
        let undoId: string;
        try {
            undoId = await this.backend.recordBeforeChange(proposal.fileUri);
        } catch (error) {
            this.output.warn(nls.localize('theia-cli-companion/cli-core/noUndoSoReview',
                'Could not keep {0} for Undo ({1}); the change is opened for review instead of being accepted automatically.', fileUri.path.fsPath(), String(error)));
            return false;
        }
        this.recordApplied(proposal, undoId);
        this.output.info(nls.localize('theia-cli-companion/cli-core/acceptedAutomatically', 'Accepted the change {0} proposed to {1} (review pace: accept automatically)',
            proposal.origin.label, fileUri.path.fsPath()));
        this.report({ proposal, proposalUri: fileUri, resolved: false, onOutcome }, { accepted: true, content: proposal.newContent });
        return true;
    }

    /** Lists a change applied without its own review (Pending Changes shows it with Undo). */
    recordApplied(proposal: ReviewedProposal, undoId: string): void {
        this.appliedChanges.set(proposal.id, { proposal, undoId, appliedAt: Date.now() });
        this.onDidChangeEmitter.fire();
    }

    /** The changes accepted automatically in this session, oldest first. */
    get applied(): AppliedChange[] {
        return [...this.appliedChanges.values()];
    }

    /**
     * Puts the file back as it was before an automatically accepted change. If it changed since (the
     * user edited it, or the CLI wrote something else), the user is asked first.
     */
    async undo(id: string): Promise<void> {
        const change = this.appliedChanges.get(id);
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
        this.appliedChanges.delete(id);
        this.output.info(nls.localize('theia-cli-companion/cli-core/undone', 'Undid the change {0} made to {1}', change.proposal.origin.label, fileUri.path.fsPath()));
        this.onDidChangeEmitter.fire();
    }

    /** Closes without an outcome (the CLI decided); returns the right side's current text. */
    async closeDiff(id: string): Promise<string | undefined> {
        const diff = this.diffs.get(id);
        if (!diff) {
            return undefined;
        }
        const text = await this.reportedText(diff, await this.currentState(diff));
        diff.resolved = true;
        this.close(diff);
        return text;
    }

    /**
     * Closing a review is its reject, with no "save changes?" prompt: the proposal is no file, so
     * Theia's question would have no meaning (and no save could accept it). Theia's SaveableService
     * gives every widget with a dirty model a `close` that asks first; the review's closes without.
     */
    protected closeWithoutSavePrompt(widget: Widget): void {
        if (SaveableWidget.is(widget)) {
            const closeWithoutSaving = () => widget.closeWithoutSaving();
            Object.assign(widget, { close: closeWithoutSaving, closeWithSaving: closeWithoutSaving });
        }
    }

    /** Accepts the diff with this id, or the one in the current editor, with the text its right side shows. */
    async accept(id?: string): Promise<void> {
        const diff = this.find(id);
        if (!diff || diff.resolved || diff.settling) {
            return;
        }
        diff.settling = true;
        try {
            await this.settleAccepted(diff);
        } finally {
            diff.settling = false;
        }
    }

    protected async settleAccepted(diff: ReviewedDiff): Promise<void> {
        const shown = await this.currentState(diff);
        if (shown === undefined) {
            this.messageService.error(nls.localize('theia-cli-companion/cli-core/diffNoText', 'The proposed text of {0} is no longer available.', diff.proposal.fileUri));
            return;
        }
        if (!await this.confirmOverwrite(diff)) {
            return;
        }
        const accepted = (await this.reportedText(diff, shown))!;
        if (this.settings.get<boolean>(DIFF_WRITE_ON_ACCEPT_PREF, 'writes') === true && !diff.onOutcome) {
            await this.writeAccepted(diff, accepted);
        }
        this.report(diff, { accepted: true, content: accepted });
        this.close(diff);
    }

    /**
     * Writes the accepted text from the IDE before the CLI does (the same text, so its write changes nothing):
     * by the backend, inside the workspace folders only, as every other write of the IDE's.
     */
    protected async writeAccepted(diff: ReviewedDiff, content: string): Promise<void> {
        const fileUri = new URI(diff.proposal.fileUri);
        try {
            await this.backend.writeAccepted(diff.proposal.fileUri, toRpcText(content));
            this.output.info(nls.localize('theia-cli-companion/cli-core/diffWritten', 'Wrote the accepted change to {0}', fileUri.path.fsPath()));
        } catch (error) {
            this.output.error(nls.localize('theia-cli-companion/cli-core/diffWriteFailed',
                'Could not write the accepted change to {0}: {1}', fileUri.path.fsPath(), String(error)));
            this.messageService.error(nls.localize('theia-cli-companion/cli-core/diffWriteFailedUser',
                'Could not write the accepted change to {0}; the CLI will try: {1}', fileUri.path.base, String(error)));
        }
    }

    /** Brings the diff editor of this proposal to the front. */
    reveal(id: string): void {
        void this.open(id);
    }

    /** Brings the diff editor of this proposal to the front (opening it, if it was queued) and gives it the focus. */
    async open(id: string): Promise<Widget | undefined> {
        const diff = this.diffs.get(id);
        if (!diff || diff.resolved) {
            return undefined;
        }
        if (diff.widget) {
            await this.shell.activateWidget(diff.widget.id);
            return diff.widget;
        }
        const widget = await this.openEditor(diff, 'activate');
        this.onDidChangeEmitter.fire();
        return widget;
    }

    /**
     * The CLI writes the accepted text over the file. If the user has unsaved edits to it, or it
     * changed on disk since the diff opened, they are told so and decide; nothing is silently lost.
     */
    protected async confirmOverwrite(diff: ReviewedDiff): Promise<boolean> {
        const fileUri = new URI(diff.proposal.fileUri);
        const problems: string[] = [];
        if (this.textModels.loaded(fileUri)?.dirty) {
            problems.push(nls.localize('theia-cli-companion/cli-core/diffDirty',
                '{0} has unsaved changes in an editor; they will be lost when the CLI writes the file.', fileUri.path.base));
        }
        const stat = await this.fileService.resolve(fileUri).catch(() => undefined);
        if ((stat?.etag ?? 'absent') !== diff.etagAtOpen) {
            problems.push(nls.localize('theia-cli-companion/cli-core/diffChangedOnDisk',
                '{0} changed on disk since the diff opened; the proposal was made against the old content.', fileUri.path.base));
        }
        if (!problems.length) {
            return true;
        }
        return this.confirmation.confirm(problems);
    }

    async reject(id?: string): Promise<void> {
        const diff = this.find(id);
        if (!diff || diff.resolved || diff.settling) {
            return;
        }
        this.report(diff, { accepted: false });
        this.close(diff);
    }

    /** Rejects every pending proposal, or the group's (one CLI session, chat or task). */
    async rejectAll(groupId?: string): Promise<void> {
        await Promise.all(this.idsOf(groupId).map(id => this.reject(id)));
    }

    /**
     * Accepts every pending proposal, or the group's, one after the other: each may need the user's
     * word on an overwrite, and each is answered once, to the session that proposed it.
     */
    async acceptAll(groupId?: string): Promise<void> {
        for (const id of this.idsOf(groupId)) {
            await this.accept(id);
        }
    }

    protected idsOf(groupId: string | undefined): string[] {
        return [...this.diffs.values()].filter(diff => !diff.resolved && (groupId === undefined || diff.proposal.origin.groupId === groupId)).map(diff => diff.proposal.id);
    }

    /** The diff shown by this widget (or the current one), if it is a review of ours. */
    idOf(widget: Widget | undefined = this.shell.currentWidget): string | undefined {
        return widget ? [...this.diffs.values()].find(diff => diff.widget === widget && !diff.resolved)?.proposal.id : undefined;
    }

    protected find(id: string | undefined): ReviewedDiff | undefined {
        const key = id ?? this.idOf();
        return key ? this.diffs.get(key) : undefined;
    }

    /**
     * What the CLI is told the right side holds. An unedited proposal is reported verbatim: Monaco's
     * model of it may differ in line endings, a BOM, or even lines (a lone CR), none of it the user's doing.
     * An edited one (typed, or changes rejected) keeps the proposal's and the file's own line endings
     * where its lines came from them.
     */
    protected async reportedText(diff: ReviewedDiff, shown: { text: string; edited: boolean } | undefined): Promise<string | undefined> {
        if (!shown) {
            return undefined;
        }
        if (!shown.edited) {
            return diff.proposal.newContent;
        }
        return reviewedText({ proposal: diff.proposal.newContent, original: await this.originalText(diff), shown: shown.text });
    }

    /** The file's text on disk, line endings as they are: where a rejected change's lines come from. */
    protected async originalText(diff: ReviewedDiff): Promise<string | undefined> {
        if (!diff.proposal.fileExists) {
            return undefined;
        }
        try {
            return (await this.fileService.read(new URI(diff.proposal.fileUri))).value;
        } catch (error) {
            this.logger.warn(`Could not read ${diff.proposal.fileUri} for the reviewed text; restored lines take the editor's line ending: ${error}`);
            return undefined;
        }
    }

    /**
     * The right side's text, and whether the user changed it. Nothing can save the proposal, so its
     * model stays dirty from the user's first edit until it is undone back to the proposal.
     */
    protected async currentState(diff: ReviewedDiff): Promise<{ text: string; edited: boolean } | undefined> {
        try {
            const { text, dirty } = await this.textModels.read(diff.proposalUri);
            return { text, edited: dirty };
        } catch (error) {
            this.logger.warn(`Could not read the proposed text of diff ${diff.proposal.id}: ${error}`);
            return undefined;
        }
    }

    protected report(diff: ReviewedDiff, outcome: { accepted: true; content: string } | { accepted: false }): void {
        diff.resolved = true;
        if (diff.onOutcome) {
            diff.onOutcome(outcome);
            this.onDidChangeEmitter.fire();
            return;
        }
        const wire: DiffOutcome = outcome.accepted ? { accepted: true, content: toRpcText(outcome.content) } : outcome;
        this.backend.resolveDiff(diff.proposal.id, wire).catch(error => {
            this.logger.error(`Could not report the outcome of diff ${diff.proposal.id}: ${error}`);
            this.messageService.error(nls.localize('theia-cli-companion/cli-core/diffReportFailed', 'Could not tell the CLI the outcome of the diff: {0}', String(error)));
        });
        this.onDidChangeEmitter.fire();
    }

    /**
     * Closes the editor as its tab's × does, minus the "save changes?" step (the outcome is settled, and
     * the proposal's model is left as it is). Not a plain dispose: that makes the next editor of the tab
     * bar current while it is still hidden, and Theia (1.74) detaches a hidden editor's model, so its
     * status bar reads a cursor that is not there ("Cannot destructure property 'lineNumber' of
     * 'this.editor.getPosition(...)'") and never shows that editor's position. A close first shows it.
     */
    protected close(diff: ReviewedDiff): void {
        const widget = diff.widget;
        if (widget && !widget.isDisposed) {
            // Theia keeps a saveable widget's own close under this symbol (its `close` asks to save first).
            const closeAsIs = (widget as Widget & { [closeWithoutPrompt]?: () => void })[closeWithoutPrompt] ?? Widget.prototype.close;
            closeAsIs.call(widget);
            if (!widget.isDisposed) {
                widget.dispose();
            }
        }
        this.forget(diff);
    }

    protected forget(diff: ReviewedDiff): void {
        if (this.diffs.get(diff.proposal.id) === diff) {
            this.diffs.delete(diff.proposal.id);
            diff.registration?.dispose();
            this.resources.unregister(diff.proposalUri);
            this.onDidChangeEmitter.fire();
        }
    }
}
