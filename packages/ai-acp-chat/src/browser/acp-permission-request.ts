import type * as acp from '@agentclientprotocol/sdk';
import { ErrorChatResponseContentImpl, MutableChatRequestModel, QuestionResponseContentImpl } from '@theia/ai-chat';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { nls } from '@theia/core/lib/common/nls';
import { Deferred } from '@theia/core/lib/common/promise-util';
import { diffsOf, ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import type { DiffReviewService, ReviewOutcome } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { markdownText } from './agent-markdown/markdown-text';
import { AgentMarkdownContent } from './agent-markdown/agent-markdown-content';

/** A permission diff as the user reviews it: the whole file, also when the agent sent only the changed snippet. */
export interface PermissionDiff {
    readonly path: string;
    readonly original?: string;
    readonly proposed: string;
}

/** The user's answer to a permission request, and what the turn keeps of it. */
export interface PermissionAnswer {
    readonly outcome: acp.RequestPermissionOutcome;
    /** The option chosen allows the tool call (allow once, or always). */
    readonly allows: boolean;
    /** The files the tool call changes, as reviewed. */
    readonly reviewed: readonly PermissionDiff[];
    /**
     * When the reviews decided an allow: what each file is to hold (the accepted text, the user's edits
     * included, or the text from before for a rejected file; undefined for a rejected new file).
     */
    readonly written: readonly { readonly diff: PermissionDiff; readonly text: string | undefined }[];
}

/** What a permission request needs of its chat turn. */
export interface PermissionRequestContext {
    readonly request: MutableChatRequestModel;
    readonly agentName: string;
    readonly reviews: DiffReviewService;
    /** Reads a file on disk (undefined when it does not exist). */
    read(filePath: string): Promise<string | undefined>;
}

type FileDecision = Exclude<ReviewOutcome, { kind: 'withdrawn' }>;

/**
 * One ACP permission request in the chat: a question with the agent's options and, when the tool call
 * carries diffs, a review of each file through the window's review (`DiffReviewService.review`). It is
 * answered once: by the option the user picks in the chat, by the reviews (allowed if any file is
 * accepted, a rejected file's write then keeps its current text; rejected if none is), or cancelled with
 * the chat request. Its reviews still open when it is answered are withdrawn.
 *
 * asking (question shown, files being read) → reviewing (reviews open) → answered.
 */
export class AcpPermissionRequest {
    protected state: 'asking' | 'reviewing' | 'answered' = 'asking';
    protected reviewed: PermissionDiff[] = [];
    /** The file decisions so far, by path. */
    protected readonly decisions = new Map<string, FileDecision>();
    /** The ids of the reviews still open. */
    protected readonly openReviews = new Set<string>();
    protected readonly answer = new Deferred<PermissionAnswer>();
    protected readonly toDispose = new DisposableCollection();
    protected readonly question: QuestionResponseContentImpl;
    protected readonly allow?: acp.PermissionOption;
    protected readonly reject?: acp.PermissionOption;

    constructor(
        protected readonly params: acp.RequestPermissionRequest,
        protected readonly toolCall: ToolCallState,
        protected readonly context: PermissionRequestContext
    ) {
        const options = params.options.map(option => ({ text: option.name, value: option.optionId, description: option.kind }));
        this.question = new QuestionResponseContentImpl(
            markdownText(nls.localize('theia-cli-companion/acp-chat/permission', '{0} asks to run: {1}', context.agentName, toolCall.title)),
            options, context.request, selected => this.settle({ outcome: 'selected', optionId: String(selected.value) }),
            { header: nls.localize('theia-cli-companion/acp-chat/permissionHeader', 'Permission') });
        this.allow = params.options.find(option => option.kind === 'allow_once') ?? params.options.find(option => option.kind.startsWith('allow'));
        this.reject = params.options.find(option => option.kind === 'reject_once') ?? params.options.find(option => option.kind.startsWith('reject'));
    }

    /** Asks in the chat and opens the reviews; resolves with the answer, once. */
    ask(): Promise<PermissionAnswer> {
        const response = this.context.request.response;
        response.response.addContent(this.question);
        response.waitForInput();
        this.toDispose.push(response.cancellationToken.onCancellationRequested(() => this.settle({ outcome: 'cancelled' })));
        Promise.all(diffsOf(this.toolCall).map(diff => this.wholeFile(diff))).then(
            whole => this.openReviewsOf(whole),
            error => this.showError(error));
        return this.answer.promise;
    }

    /** The agent withdrew the request: the question closes unanswered and says so; its reviews close. */
    withdraw(): void {
        if (this.state === 'answered') {
            return;
        }
        // Nothing selected, yet resolved: Theia's question shows no choice and takes none.
        this.question.selectedOptions = [];
        this.settle({ outcome: 'cancelled' });
        this.context.request.response.response.addContent(new AgentMarkdownContent(`\n\n*${markdownText(nls.localize('theia-cli-companion/acp-chat/permissionWithdrawn',
            '{0} withdrew its request to run {1}.', this.context.agentName, this.toolCall.title))}*\n\n`, []));
    }

    /** The turn is over: the reviews still open are rejected, their question being moot. */
    dispose(): void {
        this.openReviews.forEach(id => this.context.reviews.reject(id).catch(() => undefined));
    }

    protected openReviewsOf(whole: PermissionDiff[]): void {
        if (this.state !== 'asking') {
            // Answered in the chat before the files were read: nothing of them was reviewed.
            return;
        }
        this.reviewed = whole;
        this.state = 'reviewing';
        whole.forEach((diff, index) => this.review(diff, `acp-${this.toolCall.toolCallId}-${index}`));
    }

    protected async review(diff: PermissionDiff, id: string): Promise<void> {
        this.openReviews.add(id);
        try {
            const review = await this.context.reviews.review({
                id, fileUri: FileUri.create(diff.path).toString(), newContent: diff.proposed, fileExists: diff.original !== undefined,
                proposedBy: this.context.agentName,
                origin: { kind: 'acp', groupId: this.context.request.session.id, label: this.context.agentName }
            });
            if (this.state === 'answered') {
                // Answered in the chat while the review opened.
                await this.context.reviews.withdraw(id);
            }
            const outcome = await review.outcome;
            this.openReviews.delete(id);
            if (outcome.kind !== 'withdrawn') {
                this.decide(diff.path, outcome);
            }
        } catch (error) {
            this.showError(error);
        }
    }

    /** A tool call that changes several files is answered once every file is decided. */
    protected decide(path: string, decision: FileDecision): void {
        this.decisions.set(path, decision);
        if (this.state !== 'reviewing' || this.decisions.size < this.reviewed.length) {
            return;
        }
        const accepted = this.reviewed.filter(diff => this.decisions.get(diff.path)?.kind === 'accepted');
        if (!accepted.length || !this.allow) {
            if (this.reject) {
                this.settle({ outcome: 'selected', optionId: this.reject.optionId });
            }
            return;
        }
        const written = this.reviewed.map(diff => {
            const decision = this.decisions.get(diff.path)!;
            return { diff, text: decision.kind === 'accepted' ? decision.content : diff.original };
        });
        this.settle({ outcome: 'selected', optionId: this.allow.optionId }, written);
    }

    protected settle(outcome: acp.RequestPermissionOutcome, written: PermissionAnswer['written'] = []): void {
        if (this.state === 'answered') {
            return;
        }
        this.state = 'answered';
        this.toDispose.dispose();
        const chosen = outcome.outcome === 'selected' ? this.params.options.find(option => option.optionId === outcome.optionId) : undefined;
        if (outcome.outcome === 'selected') {
            this.question.selectedOption = this.question.options.find(option => option.value === outcome.optionId);
        }
        const withdrawn = [...this.openReviews].map(id => this.context.reviews.withdraw(id).catch(() => undefined));
        this.openReviews.clear();
        this.context.request.response.stopWaitingForInput();
        const allows = !!chosen?.kind.startsWith('allow');
        void Promise.all(withdrawn).then(() => this.answer.resolve({ outcome, allows, reviewed: this.reviewed, written }));
    }

    /**
     * The whole file the agent proposes. Gemini CLI and Qwen Code send whole files; Claude Code sends the
     * replaced snippet (`oldText` → `newText`), which is put in place where it occurs exactly once in the
     * file; and its Write sends no `oldText` even for a file that exists. What cannot be placed is
     * reviewed as sent.
     */
    protected async wholeFile(diff: { path: string; oldText?: string | null; newText: string }): Promise<PermissionDiff> {
        const current = await this.context.read(diff.path).catch(() => undefined);
        const old = diff.oldText ?? undefined;
        // A file that is not there is new, whatever `oldText` says (Qwen Code sends '' for a new file).
        if (current === undefined || old === undefined || current === old) {
            return { path: diff.path, original: current, proposed: diff.newText };
        }
        const at = current.indexOf(old);
        const once = old.length > 0 && at >= 0 && current.indexOf(old, at + 1) < 0;
        return once
            ? { path: diff.path, original: current, proposed: current.slice(0, at) + diff.newText + current.slice(at + old.length) }
            : { path: diff.path, original: old, proposed: diff.newText };
    }

    protected showError(error: unknown): void {
        this.context.request.response.response.addContent(new ErrorChatResponseContentImpl(new Error(`The proposed change could not be shown: ${error}`)));
    }
}
