import type { DiffProposal } from '@theia-cli-companion/ide-companion-server/lib/common';

/** A proposal as the window reviews it: its text decoded from the RPC. */
export type ReviewedProposal = Omit<DiffProposal, 'newContent'> & { readonly newContent: string };

/**
 * How a review ended, once: the user accepted it (with the text the right side showed, as reported to
 * the proposer), rejected it (a ✗, the Reject command, or closing its editor), or its proposer withdrew it
 * (a CLI's closeDiff, a chat's question answered in the chat): a withdrawn review is reported to nobody.
 */
export type ReviewOutcome =
    /** `automatically`: by the review pace "accept", without the user seeing it. */
    | { readonly kind: 'accepted'; readonly content: string; readonly automatically?: boolean }
    | { readonly kind: 'rejected' }
    | { readonly kind: 'withdrawn' };

/** A proposal shown, queued or accepted automatically; its outcome settles once. */
export interface PendingReview {
    readonly proposal: ReviewedProposal;
    readonly outcome: Promise<ReviewOutcome>;
}
