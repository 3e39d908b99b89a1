import { inject, injectable } from '@theia/core/shared/inversify';
import { Widget } from '@theia/core/lib/browser/widgets/widget';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { Deferred } from '@theia/core/lib/common/promise-util';
import URI from '@theia/core/lib/common/uri';
import { IdeCompanionPreferences, REVIEW_NOTIFY_QUEUED_PREF } from '../../common/ide-companion-preferences';
import { ReviewDiffRegistry } from '../review-changes/review-diff-registry';
import { AppliedChanges } from './applied-changes';
import { OverwriteCheck } from './overwrite-check';
import { PROPOSAL_SCHEME, ProposedContentResource, ProposedContentResourceResolver } from './proposed-content-resource-resolver';
import { ReviewEditors } from './review-editors';
import { ReviewPaceSettings } from './review-pace-settings';
import { PendingReview, ReviewedProposal, ReviewOutcome } from './reviewed-proposal';
import { ReviewedTexts } from './reviewed-texts';
import { ReviewedDiff } from './reviewed-diff';
import { frontendTimingMark } from '../timing/frontend-timing-mark';

/**
 * The window's review of proposed changes, one entry point for every proposer: `review` shows a
 * proposal in Theia's Monaco diff editor (left the file as it is now, right the editable proposal),
 * queues it or accepts it automatically, as the proposer's review pace says, and settles its outcome
 * once. Who proposed it turns the outcome into its own answer (`CliDiffRequests` for a CLI,
 * the chat's permission request for an ACP agent).
 * Only the user's explicit decision settles a proposal. Accept: Ctrl/Cmd+S in the review (a
 * keybinding of the Accept command, not a save), the ✓ action or the Accept command. Reject: the
 * ✗ action, the Reject command, or closing the tab. No save settles it: the proposal cannot be
 * saved at all (see {@link ProposedContentResource}), so auto-save, *Save All* and other saves
 * leave it pending with the user's edits in place.
 */
@injectable()
export class DiffReviewService {

    @inject(ReviewEditors) protected readonly editors: ReviewEditors;
    @inject(ReviewedTexts) protected readonly texts: ReviewedTexts;
    @inject(OverwriteCheck) protected readonly overwrites: OverwriteCheck;
    @inject(ProposedContentResourceResolver) protected readonly resources: ProposedContentResourceResolver;
    @inject(ReviewDiffRegistry) protected readonly registry: ReviewDiffRegistry;
    @inject(ReviewPaceSettings) protected readonly pace: ReviewPaceSettings;
    @inject(AppliedChanges) protected readonly appliedChanges: AppliedChanges;
    @inject(MessageService) protected readonly messageService: MessageService;
    @inject(IdeCompanionPreferences) protected readonly preferences: IdeCompanionPreferences;

    protected readonly diffs = new Map<string, ReviewedDiff>();
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    get pending(): ReviewedProposal[] {
        return [...this.diffs.values()].filter(diff => !diff.resolved).map(diff => diff.proposal);
    }

    /**
     * Reviews a proposal: resolves once it is shown, queued or accepted automatically (rejects when its
     * editor cannot open); its `outcome` settles once, with the user's answer or as withdrawn.
     */
    async review(proposal: ReviewedProposal): Promise<PendingReview> {
        const pace = this.pace.of(proposal.origin);
        if (pace === 'accept' && await this.appliedChanges.acceptUnseen(proposal)) {
            this.onDidChangeEmitter.fire();
            return { proposal, outcome: Promise.resolve({ kind: 'accepted', content: proposal.newContent, automatically: true }) };
        }
        const fileUri = new URI(proposal.fileUri);
        const proposalUri = new URI(`${PROPOSAL_SCHEME}:${fileUri.path.toString()}`).withQuery(proposal.id);
        const diff: ReviewedDiff = { proposal, proposalUri, outcome: new Deferred(), resolved: false, queued: pace === 'queue' };
        diff.etagAtOpen = this.overwrites.etagOf(proposal.fileUri);
        this.diffs.set(proposal.id, diff);
        diff.registration = this.registry.add({
            id: proposal.id, groupId: proposal.origin.groupId, widget: () => diff.widget, open: () => this.open(proposal.id)
        });
        this.resources.register(new ProposedContentResource(proposalUri, proposal.newContent));
        if (diff.queued) {
            // Nothing opens and nothing takes the focus: Pending Changes and the status bar count show it.
            this.onDidChangeEmitter.fire();
            this.noticeQueued(diff);
            return { proposal, outcome: diff.outcome.promise };
        }
        try {
            await this.openEditor(diff, this.editors.modeForNew());
        } catch (error) {
            this.forget(diff);
            throw error;
        }
        this.onDidChangeEmitter.fire();
        return { proposal, outcome: diff.outcome.promise };
    }

    protected async openEditor(diff: ReviewedDiff, mode: 'activate' | 'reveal'): Promise<Widget> {
        frontendTimingMark('diff:opening');
        const widget = await this.editors.open(diff.proposal, diff.proposalUri, mode);
        frontendTimingMark('diff:opened');
        if (diff.resolved) {
            // Settled while its editor opened (its proposer withdrew it, say): nothing to show.
            this.editors.close(widget);
            return widget;
        }
        diff.widget = widget;
        this.registry.changed();
        widget.disposed.connect(() => {
            if (diff.widget === widget && !diff.resolved && diff.queued) {
                // Closing a queued review's editor only puts it back in the queue.
                diff.widget = undefined;
                this.registry.changed();
                this.onDidChangeEmitter.fire();
                return;
            }
            if (!diff.resolved) {
                this.report(diff, { kind: 'rejected' });
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
     * Closes a review its proposer withdrew (a CLI decided itself, a chat's question was answered in the
     * chat): its outcome is "withdrawn". Returns the right side's current text, as reported on accept.
     */
    async withdraw(id: string): Promise<string | undefined> {
        const diff = this.diffs.get(id);
        if (!diff) {
            return undefined;
        }
        const shown = await this.texts.shown(diff.proposal, diff.proposalUri);
        const text = shown && await this.texts.reported(diff.proposal, shown);
        this.report(diff, { kind: 'withdrawn' });
        this.close(diff);
        return text;
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
        const shown = await this.texts.shown(diff.proposal, diff.proposalUri);
        if (shown === undefined) {
            this.messageService.error(nls.localize('theia-cli-companion/cli-core/diffNoText', 'The proposed text of {0} is no longer available.', diff.proposal.fileUri));
            return;
        }
        if (!await this.overwrites.confirm(diff.proposal.fileUri, await diff.etagAtOpen)) {
            return;
        }
        this.report(diff, { kind: 'accepted', content: await this.texts.reported(diff.proposal, shown) });
        this.close(diff);
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
            await this.editors.activate(diff.widget);
            return diff.widget;
        }
        const widget = await this.openEditor(diff, 'activate');
        this.onDidChangeEmitter.fire();
        return widget;
    }

    async reject(id?: string): Promise<void> {
        const diff = this.find(id);
        if (!diff || diff.resolved || diff.settling) {
            return;
        }
        this.report(diff, { kind: 'rejected' });
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
    idOf(widget: Widget | undefined = this.editors.current): string | undefined {
        return widget ? [...this.diffs.values()].find(diff => diff.widget === widget && !diff.resolved)?.proposal.id : undefined;
    }

    protected find(id: string | undefined): ReviewedDiff | undefined {
        const key = id ?? this.idOf();
        return key ? this.diffs.get(key) : undefined;
    }

    protected report(diff: ReviewedDiff, outcome: ReviewOutcome): void {
        diff.resolved = true;
        diff.outcome.resolve(outcome);
        this.onDidChangeEmitter.fire();
    }

    protected close(diff: ReviewedDiff): void {
        this.editors.close(diff.widget);
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
