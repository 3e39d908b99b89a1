import { injectable } from '@theia/core/shared/inversify';
import { Disposable, DisposableCollection } from '@theia/core/lib/common/disposable';
import { Emitter } from '@theia/core/lib/common/event';
import { nls } from '@theia/core/lib/common/nls';
import { Widget } from '@theia/core/lib/browser/widgets/widget';
import { EditorWidget } from '@theia/editor/lib/browser/editor-widget';
import { MonacoEditor } from '@theia/monaco/lib/browser/monaco-editor';
import { MonacoDiffEditor } from '@theia/monaco/lib/browser/monaco-diff-editor';
import type * as monaco from '@theia/monaco-editor-core';
import { changeAtLine, changeSignature } from '@theia-cli-companion/ide-companion-server/lib/common';
import { LineSpan, ReviewChange, ReviewChangeEditor, ReviewChangeEditors } from './review-change-editor';

/** A change as Monaco's diff computation gives it (`DetailedLineRangeMapping`, 1-based, end exclusive). */
interface LineRangeMapping {
    readonly original: { readonly startLineNumber: number; readonly endLineNumberExclusive: number };
    readonly modified: { readonly startLineNumber: number; readonly endLineNumberExclusive: number };
}

/**
 * The parts of Monaco's `DiffEditorWidget` that the public `IStandaloneDiffEditor` type leaves out but
 * every diff editor has (the gutter's "Revert Block" uses them): the reverted text then comes from
 * Monaco itself, from the left model, exactly as that button does it.
 */
interface DiffEditorWithRevert extends monaco.editor.IStandaloneDiffEditor {
    revert(mapping: LineRangeMapping): void;
    waitForDiff(): Promise<void>;
    getDiffComputationResult(): { readonly changes2: readonly LineRangeMapping[]; readonly quitEarly: boolean } | null;
}

/** Options every review diff gets, whatever the user's `diffEditor.*` preferences: each change must be reviewable. */
const REVIEW_OPTIONS = {
    // Theia's default hides changes of leading and trailing whitespace (an indentation change in Python is
    // not cosmetic): a change the diff does not show could be neither rejected nor kept.
    ignoreTrimWhitespace: false
};

class MonacoReviewChangeEditor implements ReviewChangeEditor {
    protected readonly onDidUpdateChangesEmitter = new Emitter<void>();
    readonly onDidUpdateChanges = this.onDidUpdateChangesEmitter.event;
    protected readonly mappings = new WeakMap<ReviewChange, LineRangeMapping>();
    protected readonly kept: monaco.editor.IEditorDecorationsCollection;
    protected lastFocusedSide: 'original' | 'modified' = 'modified';

    constructor(protected readonly editor: MonacoDiffEditor, protected readonly diffEditor: DiffEditorWithRevert) {
        const original = diffEditor.getOriginalEditor();
        const modified = diffEditor.getModifiedEditor();
        this.kept = modified.createDecorationsCollection();
        diffEditor.updateOptions(REVIEW_OPTIONS);
        const subscriptions = new DisposableCollection(
            this.onDidUpdateChangesEmitter,
            diffEditor.onDidUpdateDiff(() => this.onDidUpdateChangesEmitter.fire()),
            original.onDidFocusEditorText(() => this.lastFocusedSide = 'original'),
            modified.onDidFocusEditorText(() => this.lastFocusedSide = 'modified'),
            // Theia re-applies every diffEditor.* preference when one changes; ours must win again.
            diffEditor.onDidChangeModel(() => diffEditor.updateOptions(REVIEW_OPTIONS)),
            Disposable.create(() => this.kept.clear())
        );
        editor.onDispose(() => subscriptions.dispose());
    }

    get modifiedUri(): string {
        return this.editor.modifiedModel.uri;
    }

    waitForChanges(): Promise<void> {
        return this.diffEditor.waitForDiff();
    }

    changes(): ReviewChange[] {
        const mappings = this.diffEditor.getDiffComputationResult()?.changes2 ?? [];
        const original = this.diffEditor.getOriginalEditor().getModel();
        const modified = this.diffEditor.getModifiedEditor().getModel();
        if (!original || !modified) {
            return [];
        }
        return mappings.map(mapping => {
            const change: ReviewChange = {
                original: span(mapping.original),
                modified: span(mapping.modified),
                signature: changeSignature(linesOf(original, span(mapping.original)), linesOf(modified, span(mapping.modified)))
            };
            this.mappings.set(change, mapping);
            return change;
        });
    }

    cursorLine(): number {
        return this.diffEditor.getModifiedEditor().getPosition()?.lineNumber ?? 1;
    }

    changeAtCursor(): ReviewChange | undefined {
        const side = this.lastFocusedSide;
        const line = (side === 'original' ? this.diffEditor.getOriginalEditor() : this.diffEditor.getModifiedEditor()).getPosition()?.lineNumber;
        if (line === undefined) {
            return undefined;
        }
        return changeAtLine(this.changes(), line, side);
    }

    async revert(change: ReviewChange): Promise<void> {
        await this.waitForChanges();
        const current = this.changes().find(candidate => candidate.signature === change.signature && candidate.modified.start === change.modified.start)
            ?? this.changes().find(candidate => candidate.signature === change.signature);
        const mapping = current && this.mappings.get(current);
        if (mapping) {
            this.diffEditor.revert(mapping);
        }
    }

    reveal(change: ReviewChange): void {
        const modified = this.diffEditor.getModifiedEditor();
        const line = Math.max(1, Math.min(change.modified.start, modified.getModel()?.getLineCount() ?? 1));
        modified.setPosition({ lineNumber: line, column: 1 });
        modified.revealLinesInCenter(line, Math.max(line, change.modified.end - 1));
        modified.focus();
    }

    markKept(changes: readonly ReviewChange[]): void {
        this.kept.set(changes.map(change => {
            // A deletion has no line of its own on the right: its mark goes on the line above it.
            const start = change.modified.start === change.modified.end ? Math.max(1, change.modified.start - 1) : change.modified.start;
            const end = Math.max(start, change.modified.end - 1);
            return {
                range: { startLineNumber: start, startColumn: 1, endLineNumber: end, endColumn: 1 },
                options: {
                    description: 'ai-cli-kept-change',
                    isWholeLine: true,
                    linesDecorationsClassName: 'ai-cli-kept-change codicon codicon-pass',
                    linesDecorationsTooltip: nls.localize('theia-cli-companion/cli-core/changeKept', 'You accepted this change')
                }
            };
        }));
    }
}

function span(range: LineRangeMapping['original']): LineSpan {
    return { start: range.startLineNumber, end: range.endLineNumberExclusive };
}

function linesOf(model: monaco.editor.ITextModel, lines: LineSpan): string[] {
    const content: string[] = [];
    for (let line = lines.start; line < lines.end && line <= model.getLineCount(); line++) {
        content.push(model.getLineContent(line));
    }
    return content;
}

/** Monaco's diff editors, wrapped once per editor for the change commands. */
@injectable()
export class MonacoReviewChangeEditors implements ReviewChangeEditors {
    protected readonly editors = new WeakMap<MonacoDiffEditor, MonacoReviewChangeEditor>();

    of(widget: Widget): ReviewChangeEditor | undefined {
        const editor = widget instanceof EditorWidget ? MonacoEditor.get(widget) : undefined;
        if (!(editor instanceof MonacoDiffEditor)) {
            return undefined;
        }
        let wrapped = this.editors.get(editor);
        if (!wrapped) {
            wrapped = new MonacoReviewChangeEditor(editor, editor.diffEditor as DiffEditorWithRevert);
            this.editors.set(editor, wrapped);
        }
        return wrapped;
    }
}
