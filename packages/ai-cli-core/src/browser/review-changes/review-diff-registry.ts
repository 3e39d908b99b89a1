import { injectable } from '@theia/core/shared/inversify';
import { Disposable } from '@theia/core/lib/common/disposable';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { Widget } from '@theia/core/lib/browser/widgets/widget';

/**
 * A diff the user reviews change by change: a proposal (the right side is the proposed text) or an
 * applied change (the right side is the file itself, as after an agent task).
 */
export interface ReviewDiff {
    /** Unique in the window: the proposal id, or the task and file. */
    readonly id: string;
    /** The session, chat or task it belongs to: Next/Previous Change go across the diffs of one group. */
    readonly groupId: string;
    /** Its diff editor, while one is open. */
    widget(): Widget | undefined;
    /** Opens (or reveals) its diff editor and gives it the focus. */
    open(): Promise<Widget | undefined>;
}

/** Which diffs of the window are reviews: the change commands work in these and nowhere else. */
@injectable()
export class ReviewDiffRegistry {
    protected readonly diffs = new Map<string, ReviewDiff>();
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    add(diff: ReviewDiff): Disposable {
        this.diffs.set(diff.id, diff);
        this.onDidChangeEmitter.fire();
        return Disposable.create(() => {
            if (this.diffs.get(diff.id) === diff) {
                this.diffs.delete(diff.id);
                this.onDidChangeEmitter.fire();
            }
        });
    }

    /** Tells the registry a diff's editor opened or closed. */
    changed(): void {
        this.onDidChangeEmitter.fire();
    }

    has(id: string): boolean {
        return this.diffs.has(id);
    }

    all(): ReviewDiff[] {
        return [...this.diffs.values()];
    }

    of(widget: Widget | undefined): ReviewDiff | undefined {
        return widget ? [...this.diffs.values()].find(diff => diff.widget() === widget) : undefined;
    }

    /** The group's diffs in the order they arrived. */
    group(groupId: string): ReviewDiff[] {
        return [...this.diffs.values()].filter(diff => diff.groupId === groupId);
    }
}
