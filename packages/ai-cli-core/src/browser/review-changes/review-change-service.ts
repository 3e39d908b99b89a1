import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { Widget } from '@theia/core/lib/browser/widgets/widget';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { changeBeside } from '@theia-cli-companion/ide-companion-server/lib/common';
import { ReviewChange, ReviewChangeEditor, ReviewChangeEditors } from './review-change-editor';
import { ReviewDiff, ReviewDiffRegistry } from './review-diff-registry';

/** What the diff editor's gutter passes to a change action: the change it was clicked on. */
export interface GutterChange {
    readonly mapping: {
        readonly modified: { readonly startLineNumber: number; readonly endLineNumberExclusive: number };
    };
    readonly modifiedUri: { toString(): string };
}

export namespace GutterChange {
    export function is(arg: unknown): arg is GutterChange {
        const candidate = arg as Partial<GutterChange> | undefined;
        return typeof candidate === 'object' && candidate !== null && typeof candidate.mapping?.modified?.startLineNumber === 'number'
            && typeof candidate.modifiedUri?.toString === 'function';
    }
}

interface Target {
    readonly diff: ReviewDiff;
    readonly editor: ReviewChangeEditor;
}

/**
 * Change-level review: keep (accept) or reject one change of a review diff, and move from change to
 * change across the diffs of one session. A decision only edits or marks the right side; the review
 * itself is settled by its file-level accept or reject alone.
 */
@injectable()
export class ReviewChangeService {

    @inject(ReviewDiffRegistry) protected readonly registry: ReviewDiffRegistry;
    @inject(ReviewChangeEditors) protected readonly editors: ReviewChangeEditors;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(MessageService) protected readonly messages: MessageService;

    /** The changes the user kept, by review diff, as their content (positions move while the user works). */
    protected readonly kept = new Map<string, Set<string>>();
    protected readonly tracked = new WeakSet<ReviewChangeEditor>();
    protected readonly onDidDecideEmitter = new Emitter<void>();
    /** Fires when the changes of a review diff, or the user's decisions on them, change. */
    readonly onDidDecide: Event<void> = this.onDidDecideEmitter.event;

    @postConstruct()
    protected init(): void {
        this.registry.onDidChange(() => {
            for (const id of this.kept.keys()) {
                if (!this.registry.has(id)) {
                    this.kept.delete(id);
                }
            }
            // Every open review diff reports its changes as they are computed (Pending Changes counts them).
            for (const diff of this.registry.all()) {
                const widget = diff.widget();
                const editor = widget && this.editors.of(widget);
                if (editor) {
                    this.track(diff, editor);
                }
            }
        });
    }

    /** The review diff the command is for: the one whose gutter was clicked, or the current editor. */
    target(arg?: unknown): Target | undefined {
        const widgets = GutterChange.is(arg)
            ? this.registry.all().map(diff => diff.widget()).filter((widget): widget is Widget => !!widget)
            : [this.shell.currentWidget];
        for (const widget of widgets) {
            const diff = this.registry.of(widget);
            const editor = diff && widget && this.editors.of(widget);
            if (diff && editor && (!GutterChange.is(arg) || editor.modifiedUri === arg.modifiedUri.toString())) {
                this.track(diff, editor);
                return { diff, editor };
            }
        }
        return undefined;
    }

    async acceptChange(arg?: unknown): Promise<void> {
        const target = this.target(arg);
        const change = target && this.changeFor(target, arg);
        if (!target || !change) {
            return;
        }
        this.keptOf(target.diff).add(change.signature);
        this.refreshMarks(target);
        if (!GutterChange.is(arg)) {
            await this.goTo(target, 'next', change.modified.start, { undecidedOnly: true });
        }
    }

    async rejectChange(arg?: unknown): Promise<void> {
        const target = this.target(arg);
        const change = target && this.changeFor(target, arg);
        if (!target || !change) {
            return;
        }
        this.keptOf(target.diff).delete(change.signature);
        await target.editor.revert(change);
        if (!GutterChange.is(arg)) {
            // From the keyboard, the review moves on; a click in the gutter leaves the cursor and the focus where they are
            // (the user may already be typing elsewhere when the diff has caught up).
            await target.editor.waitForChanges();
            await this.goTo(target, 'next', change.modified.start - 1, { undecidedOnly: true });
        }
    }

    async next(): Promise<void> {
        const target = this.target();
        if (target) {
            await this.goTo(target, 'next', target.editor.cursorLine(), { undecidedOnly: false });
        }
    }

    async previous(): Promise<void> {
        const target = this.target();
        if (target) {
            await this.goTo(target, 'previous', target.editor.cursorLine(), { undecidedOnly: false });
        }
    }

    /** The changes of an open review diff the user has not decided yet, and how many it has. */
    progress(diff: ReviewDiff): { undecided: number; total: number } | undefined {
        const widget = diff.widget();
        const editor = widget && this.editors.of(widget);
        if (!editor) {
            return undefined;
        }
        const changes = editor.changes();
        return { undecided: this.undecided(diff, changes).length, total: changes.length };
    }

    protected changeFor(target: Target, arg: unknown): ReviewChange | undefined {
        const change = GutterChange.is(arg)
            ? target.editor.changes().find(candidate => candidate.modified.start === arg.mapping.modified.startLineNumber
                && candidate.modified.end === arg.mapping.modified.endLineNumberExclusive)
            : target.editor.changeAtCursor();
        if (!change) {
            this.messages.info(nls.localize('theia-cli-companion/cli-core/noChangeAtCursor', 'The cursor is not in a change. Use Next Change to go to one.'));
        }
        return change;
    }

    /**
     * Moves to the next (or previous) change after (before) `line` in this diff, then in the following
     * diffs of the same group, and finally wraps around, as Monaco's own navigation does. After a
     * decision only undecided changes are visited: the review moves on to what is left to decide.
     */
    protected async goTo(target: Target, direction: 'next' | 'previous', line: number, options: { undecidedOnly: boolean }): Promise<void> {
        const candidates = (diff: ReviewDiff, changes: ReviewChange[]) => options.undecidedOnly ? this.undecided(diff, changes) : changes;
        const here = candidates(target.diff, target.editor.changes());
        const inThisFile = changeBeside(here, line, direction);
        if (inThisFile) {
            target.editor.reveal(inThisFile);
            return;
        }
        const group = this.registry.group(target.diff.groupId);
        const index = group.indexOf(target.diff);
        const others = [...group.slice(index + 1), ...group.slice(0, index)];
        for (const diff of direction === 'next' ? others : others.reverse()) {
            const widget = await diff.open();
            const editor = widget && this.editors.of(widget);
            if (!editor) {
                continue;
            }
            await editor.waitForChanges();
            const changes = candidates(diff, editor.changes());
            const change = direction === 'next' ? changes[0] : changes[changes.length - 1];
            if (change) {
                this.track(diff, editor);
                editor.reveal(change);
                return;
            }
        }
        const wrapped = direction === 'next' ? here[0] : here[here.length - 1];
        if (wrapped) {
            target.editor.reveal(wrapped);
        } else if (options.undecidedOnly) {
            this.messages.info(nls.localize('theia-cli-companion/cli-core/allChangesDecided',
                'Every change of this review is decided: accept or reject the file to answer.'));
        }
    }

    protected undecided(diff: ReviewDiff, changes: ReviewChange[]): ReviewChange[] {
        const kept = this.kept.get(diff.id);
        return kept ? changes.filter(change => !kept.has(change.signature)) : changes;
    }

    protected keptOf(diff: ReviewDiff): Set<string> {
        let kept = this.kept.get(diff.id);
        if (!kept) {
            kept = new Set();
            this.kept.set(diff.id, kept);
        }
        return kept;
    }

    /** Keeps the marks on the changes still kept: an edit inside a kept change makes it undecided again. */
    protected track(diff: ReviewDiff, editor: ReviewChangeEditor): void {
        if (!this.tracked.has(editor)) {
            this.tracked.add(editor);
            editor.onDidUpdateChanges(() => this.refreshMarks({ diff, editor }));
        }
    }

    protected refreshMarks({ diff, editor }: Target): void {
        const kept = this.kept.get(diff.id);
        const changes = editor.changes();
        if (kept) {
            const present = new Set(changes.map(change => change.signature));
            for (const signature of kept) {
                if (!present.has(signature)) {
                    kept.delete(signature);
                }
            }
        }
        editor.markKept(kept ? changes.filter(change => kept.has(change.signature)) : []);
        this.onDidDecideEmitter.fire();
    }
}
