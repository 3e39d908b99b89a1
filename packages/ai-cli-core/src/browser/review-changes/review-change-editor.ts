import { Event } from '@theia/core/lib/common/event';
import { Widget } from '@theia/core/lib/browser/widgets/widget';
import type { ReviewChange } from '@theia-cli-companion/ide-companion-server/lib/common';

// One change of a diff, as the diff editor computed it: the same shape on every host.
export type { LineSpan, ReviewChange } from '@theia-cli-companion/ide-companion-server/lib/common';

/** The change-level operations on one open diff editor. */
export interface ReviewChangeEditor {
    /** Fires when the diff is computed anew (after every edit of either side). */
    readonly onDidUpdateChanges: Event<void>;
    /** The right side's URI (the proposal or the file). */
    readonly modifiedUri: string;
    /** Resolves once the diff is up to date with both sides. */
    waitForChanges(): Promise<void>;
    changes(): ReviewChange[];
    /** The change under the cursor of the focused side (or the last focused side), if any. */
    changeAtCursor(): ReviewChange | undefined;
    /** The cursor's line on the right side. */
    cursorLine(): number;
    /** Puts the right side's lines of this change back to the left side's: an ordinary, undoable edit. */
    revert(change: ReviewChange): Promise<void>;
    /** Moves the cursor to the change, scrolls it into the middle and focuses the editor. */
    reveal(change: ReviewChange): void;
    /** Marks these changes as kept by the user. */
    markKept(changes: readonly ReviewChange[]): void;
}

export const ReviewChangeEditors = Symbol('ReviewChangeEditors');
/** The port to the diff editors: Monaco's in the app, a model of one in unit tests. */
export interface ReviewChangeEditors {
    of(widget: Widget): ReviewChangeEditor | undefined;
}
