import { Event } from '@theia/core/lib/common/event';
import URI from '@theia/core/lib/common/uri';

/**
 * Changes already in the user's files that still wait for a decision, listed in Pending Changes
 * next to the proposals: what an agent task wrote, for example. Other extensions contribute these.
 */
export const PendingReviewSource = Symbol('PendingReviewSource');
export interface PendingReviewSource {
    /** Fires when its groups or their files change. */
    readonly onDidChange: Event<void>;
    groups(): PendingReviewSourceGroup[];
}

export interface PendingReviewSourceGroup {
    /** Unique in the window, like a proposal's `origin.groupId`. */
    readonly id: string;
    readonly label: string;
    /** A codicon name. */
    readonly icon: string;
    readonly files: PendingReviewSourceFile[];
    /** Keeps every file of the group as it is. */
    keepAll(): Promise<void>;
    /** Puts every file of the group back as it was (asks first: it overwrites the agent's work). */
    revertAll(): Promise<void>;
}

export interface PendingReviewSourceFile {
    /** Unique in the window; the id of its review diff in the `ReviewDiffRegistry`, when it has one. */
    readonly id: string;
    readonly uri: URI;
    readonly kind: 'added' | 'modified' | 'deleted';
    /** Opens its diff; absent when none can be shown (a deleted or binary file). */
    readonly openDiff?: () => Promise<unknown>;
    keep(): Promise<void>;
    revert(): Promise<void>;
}
