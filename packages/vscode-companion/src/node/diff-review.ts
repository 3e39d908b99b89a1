import * as path from 'path';
import * as vscode from 'vscode';
import { DiffOutcome, DiffProposal, fromRpcText, reviewedText, toRpcText } from '@theia-cli-companion/ide-companion-server/lib/common';
import { WindowLogger, FileUri } from '@theia-cli-companion/ide-companion-server/lib/node';
import { timingMark } from '@theia-cli-companion/cli-process/lib/node';
import { readFileBounded } from '@theia-cli-companion/safe-files/lib/node';
import type { AppliedChanges } from './applied-changes';
import type { CompanionSettings } from './companion-settings';
import { PROPOSAL_SCHEME, ProposalFileSystem } from './proposal-file-system';

/** The left side of a review: the file as it was when the proposal came, read-only. */
export const ORIGINAL_SCHEME = 'ai-cli-original';
/** True while the active editor shows a proposal: Accept and Reject are offered. */
export const DIFF_VISIBLE_CONTEXT = 'aiCliCompanion.diffVisible';
/** True while a proposal waits for a decision: Accept All, Reject All and Close All Diffs are offered. */
export const HAS_PENDING_CONTEXT = 'aiCliCompanion.hasPending';
/** The largest original a review shows (a larger file, like a pipe or a device, is not read). */
export const MAX_ORIGINAL_BYTES = 16 * 1024 * 1024;

export interface Review {
    readonly proposal: DiffProposal;
    /** The proposal's raw text, as the CLI sent it. */
    readonly text: string;
    /** The file's raw text the proposal is shown against; undefined for a new file. */
    readonly original: string | undefined;
    readonly left: vscode.Uri;
    readonly right: vscode.Uri;
}

/** Tells the window's server what the user decided. */
export type ReviewResolver = (id: string, outcome: DiffOutcome) => Promise<void>;

/**
 * Reviews a CLI's proposal in the host's diff editor (`vscode.diff`): the file as it is on the left
 * (a content provider), the proposal on the right, editable. Only an explicit decision settles it:
 * Accept (the title bar's ✓, Ctrl/Cmd+S in the proposal, the command) reports the right side's text
 * byte for byte (`reviewedText`: the proposal's line endings and BOM where the user left them), Reject
 * (✗) rejects; closing the tab leaves it pending, and "Review Pending Diffs" brings it back.
 * The proposer's review pace (the user's setting) decides how it arrives: opened, queued quietly in
 * Pending Changes, or accepted as proposed with Undo (see AppliedChanges).
 */
export class DiffReview implements vscode.TextDocumentContentProvider, vscode.Disposable {
    protected readonly reviews = new Map<string, Review>();
    protected readonly proposals = new ProposalFileSystem();
    protected readonly onDidChangePendingEmitter = new vscode.EventEmitter<number>();
    /** Fires the number of proposals waiting for a decision whenever it changes. */
    readonly onDidChangePending = this.onDidChangePendingEmitter.event;
    protected readonly toDispose: vscode.Disposable[] = [];

    constructor(
        protected readonly resolve: ReviewResolver,
        protected readonly logger: WindowLogger,
        protected readonly settings: CompanionSettings,
        protected readonly applied: AppliedChanges
    ) {
        this.toDispose.push(
            this.proposals.onDidSave(uri => {
                const review = this.reviewOf(uri);
                if (review) {
                    this.logger.info(`Proposal ${review.proposal.id} for ${FileUri.fsPath(review.proposal.fileUri)} saved in the window: still waiting for Accept or Reject`);
                }
            }),
            vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, this.proposals, { isCaseSensitive: true }),
            vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, this),
            vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
            this.proposals, this.onDidChangePendingEmitter
        );
    }

    get pending(): readonly DiffProposal[] {
        return [...this.reviews.values()].map(review => review.proposal);
    }

    /** The reviews waiting for a decision, oldest first: all of them, or one session's. */
    reviewsIn(groupId?: string): Review[] {
        return [...this.reviews.values()].filter(review => groupId === undefined || review.proposal.origin.groupId === groupId);
    }

    provideTextDocumentContent(uri: vscode.Uri): string {
        return this.reviewOf(uri)?.original ?? '';
    }

    async open(proposal: DiffProposal): Promise<void> {
        timingMark('diff:opening');
        const pace = this.settings.reviewPace(proposal.origin);
        if (pace === 'accept' && await this.applied.acceptUnseen(proposal)) {
            // Answered while the server still waits for this call: the proposal never waits in the window.
            await this.resolve(proposal.id, { accepted: true, content: proposal.newContent });
            return;
        }
        const filePath = FileUri.fsPath(proposal.fileUri);
        const original = proposal.fileExists ? await this.readOriginal(filePath) : undefined;
        const text = fromRpcText(proposal.newContent);
        const name = path.basename(filePath);
        const review: Review = {
            proposal, text, original,
            left: vscode.Uri.from({ scheme: ORIGINAL_SCHEME, path: `/${proposal.id}/${name}` }),
            right: vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${proposal.id}/${name}` })
        };
        this.proposals.set(review.right, Buffer.from(text, 'utf8'));
        this.reviews.set(proposal.id, review);
        this.pendingChanged();
        if (pace === 'queue') {
            // Nothing opens and nothing takes the focus: Pending Changes and the status bar count show it.
            this.logger.info(`Proposal ${proposal.id} for ${filePath} queued in Pending Changes (review pace: queue quietly)`);
            this.noticeQueued(review);
            return;
        }
        await this.show(review);
    }

    protected noticeQueued(review: Review): void {
        if (!this.settings.notifyQueued) {
            return;
        }
        const open = vscode.l10n.t('Review');
        void vscode.window.showInformationMessage(vscode.l10n.t('{0} proposes a change to {1}; it waits in Pending Changes.',
            review.proposal.origin.label, path.basename(review.right.path)), open).then(answer => {
            if (answer === open && this.reviews.get(review.proposal.id) === review) {
                return this.show(review);
            }
            return undefined;
        });
    }

    /**
     * The file as it is now, read bounded and never from a pipe or a device (see readFileBounded): one that
     * cannot be read is shown empty on the left, with a warning saying why.
     */
    protected async readOriginal(filePath: string): Promise<string | undefined> {
        const read = await readFileBounded(filePath, { maxBytes: MAX_ORIGINAL_BYTES, followLink: true });
        if (read.kind === 'unreadable') {
            this.logger.warn(`The original of ${filePath} is shown empty: it ${read.reason}`);
            void vscode.window.showWarningMessage(vscode.l10n.t('{0} {1}; its original is shown empty.', filePath, read.reason));
            return '';
        }
        return read.kind === 'content' ? read.content.toString('utf8') : undefined;
    }

    /** The CLI withdrew its proposal: the diff closes; resolves with the right side's text if it was open. */
    async close(id: string): Promise<string | undefined> {
        const review = this.reviews.get(id);
        if (!review) {
            return undefined;
        }
        const text = this.reviewedTextOf(review);
        await this.forget(review);
        return text;
    }

    /** Accepts the review of the given side or id (a Pending Changes row), or of the active editor. */
    async accept(target?: vscode.Uri | string): Promise<void> {
        const review = this.target(target);
        if (review) {
            const content = this.reviewedTextOf(review);
            await this.settle(review, { accepted: true, content: toRpcText(content) });
        }
    }

    async reject(target?: vscode.Uri | string): Promise<void> {
        const review = this.target(target);
        if (review) {
            await this.settle(review, { accepted: false });
        }
    }

    /** Accepts every waiting proposal, or one session's, one after the other: each answered once, to its own CLI. */
    async acceptAll(groupId?: string): Promise<void> {
        for (const review of this.reviewsIn(groupId)) {
            await this.accept(review.proposal.id);
        }
    }

    /** Rejects every waiting proposal, or one session's ("Close All Diffs" rejects them all, as in the Theia host). */
    async rejectAll(groupId?: string): Promise<void> {
        await Promise.all(this.reviewsIn(groupId).map(review => this.reject(review.proposal.id)));
    }

    /** Shows a pending proposal again: the only one, or the one the user picks. */
    async showPending(): Promise<void> {
        const reviews = [...this.reviews.values()];
        if (reviews.length === 0) {
            void vscode.window.showInformationMessage(vscode.l10n.t('No proposed change is waiting for your review.'));
            return;
        }
        const picked = reviews.length === 1 ? reviews[0] : (await vscode.window.showQuickPick(reviews.map(review => ({
            label: path.basename(review.right.path), description: review.proposal.proposedBy, detail: FileUri.fsPath(review.proposal.fileUri), review
        })), { placeHolder: vscode.l10n.t('The proposed change to review') }))?.review;
        if (picked) {
            await this.show(picked);
        }
    }

    /** Opens a waiting proposal's diff (a Pending Changes row). */
    async showReview(id: string): Promise<void> {
        const review = this.reviews.get(id);
        if (review) {
            await this.show(review);
        }
    }

    /** The window's server stopped: whatever is open closes, and nothing is answered any more. */
    async clear(): Promise<void> {
        await Promise.all([...this.reviews.values()].map(review => this.forget(review)));
    }

    dispose(): void {
        this.reviews.clear();
        this.toDispose.splice(0).forEach(disposable => disposable.dispose());
    }

    async show(review: Review): Promise<void> {
        const title = vscode.l10n.t('{0} ↔ proposed by {1}', path.basename(review.right.path), review.proposal.proposedBy);
        // Opened in the user's group, the diff would hide the editor that keeps the keyboard, and the keys would go nowhere: "never" opens it beside.
        const options: vscode.TextDocumentShowOptions = this.settings.diffFocus === 'never'
            ? { preview: false, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside }
            : { preview: false };
        await vscode.commands.executeCommand('vscode.diff', review.left, review.right, title, options);
        this.updateContext();
    }

    protected async settle(review: Review, outcome: DiffOutcome): Promise<void> {
        await this.forget(review);
        await this.resolve(review.proposal.id, outcome);
    }

    protected async forget(review: Review): Promise<void> {
        if (!this.reviews.delete(review.proposal.id)) {
            return;
        }
        this.pendingChanged();
        const document = this.documentOf(review);
        if (document?.isDirty) {
            // Into the in-memory proposal only: the tab then closes without asking to save.
            await document.save();
        }
        const tabs = vscode.window.tabGroups.all.flatMap(group => group.tabs).filter(tab =>
            tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === review.right.toString());
        if (tabs.length) {
            await vscode.window.tabGroups.close(tabs);
        }
        this.proposals.forget(review.right);
        this.updateContext();
    }

    /** What the right side holds now, byte for byte as the user left it (see reviewedText). */
    protected reviewedTextOf(review: Review): string {
        const document = this.documentOf(review);
        // The host drops a leading BOM when it loads a document: the stored bytes are read the same way.
        const shown = document ? document.getText() : Buffer.from(this.proposals.readFile(review.right)).toString('utf8').replace(/^\uFEFF/, '');
        return reviewedText({ proposal: review.text, original: review.original, shown });
    }

    protected documentOf(review: Review): vscode.TextDocument | undefined {
        return vscode.workspace.textDocuments.find(document => document.uri.toString() === review.right.toString());
    }

    /** The review of the given side or id, or of the active editor; a message when there is none. */
    protected target(target: vscode.Uri | string | undefined): Review | undefined {
        const review = typeof target === 'string' ? this.reviews.get(target)
            : this.reviewOf(target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri);
        if (!review) {
            void vscode.window.showInformationMessage(vscode.l10n.t('The active editor shows no proposed change.'));
        }
        return review;
    }

    /** The review one side of a diff (or its document) belongs to. */
    reviewOf(uri: vscode.Uri | undefined): Review | undefined {
        if (!uri || (uri.scheme !== PROPOSAL_SCHEME && uri.scheme !== ORIGINAL_SCHEME)) {
            return undefined;
        }
        return this.reviews.get(uri.path.split('/')[1]);
    }

    protected updateContext(): void {
        const visible = !!this.reviewOf(vscode.window.activeTextEditor?.document.uri);
        void vscode.commands.executeCommand('setContext', DIFF_VISIBLE_CONTEXT, visible);
    }

    protected pendingChanged(): void {
        void vscode.commands.executeCommand('setContext', HAS_PENDING_CONTEXT, this.reviews.size > 0);
        this.onDidChangePendingEmitter.fire(this.reviews.size);
    }
}

