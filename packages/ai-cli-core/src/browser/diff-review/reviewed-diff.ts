import { Widget } from '@theia/core/lib/browser/widgets/widget';
import { Disposable } from '@theia/core/lib/common/disposable';
import { Deferred } from '@theia/core/lib/common/promise-util';
import URI from '@theia/core/lib/common/uri';
import { ReviewedProposal, ReviewOutcome } from './reviewed-proposal';

/** A proposal under review, as `DiffReviewService` keeps it. */
export interface ReviewedDiff {
    readonly proposal: ReviewedProposal;
    readonly proposalUri: URI;
    /** Settled once, by `report`. */
    readonly outcome: Deferred<ReviewOutcome>;
    /**
     * The file's etag when the diff opened ('absent' for a new file): a change means someone else wrote it. Read while
     * the editor opens (which reads the file for its left side too), not before: nothing waits for it until an accept.
     */
    etagAtOpen?: Promise<string>;
    widget?: Widget;
    resolved: boolean;
    /** Arrived while the pace was "queue": closing its editor puts it back in the queue rather than rejecting it. */
    queued?: boolean;
    /** An accept is under way (it may be asking the user): a second one would answer the proposer twice. */
    settling?: boolean;
    /** Its entry among the window's review diffs (for the change commands). */
    registration?: Disposable;
}
