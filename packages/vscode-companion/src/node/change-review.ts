import * as vscode from 'vscode';
import {
    changeAtLine, changeBeside, computeReviewChanges, revertEdit, ReviewChange
} from '@theia-cli-companion/ide-companion-server/lib/common';
import type { DiffReview, Review } from './diff-review';
import { ORIGINAL_SCHEME } from './diff-review';
import { PROPOSAL_SCHEME } from './proposal-file-system';

interface Target {
    readonly review: Review;
    /** The proposal's editor (the diff's right side). */
    readonly editor: vscode.TextEditor;
    /** The line the command is about, 1-based, on `side`. */
    readonly line: number;
    readonly side: 'original' | 'modified';
}

/**
 * Change-level review in the VS Code host: keep (accept) or reject one change of a proposal, and move
 * from change to change across the proposals of one session, as the Theia host does. The changes are
 * computed from the two sides' texts (the VS Code API hands out none) and a decision's change is found
 * by the same rule as in Theia (`changeAtLine`). A decision only edits or marks the right side: the
 * proposal is still answered by its file-level Accept or Reject alone.
 */
export class ChangeReview implements vscode.Disposable {
    /** The changes the user kept, by review id, as their content (positions move while the user works). */
    protected readonly kept = new Map<string, Set<string>>();
    protected readonly keptDecoration = vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        borderStyle: 'solid',
        borderWidth: '0 0 0 3px',
        borderColor: new vscode.ThemeColor('testing.iconPassed'),
        overviewRulerColor: new vscode.ThemeColor('testing.iconPassed'),
        overviewRulerLane: vscode.OverviewRulerLane.Left
    });
    protected readonly toDispose: vscode.Disposable[] = [this.keptDecoration];

    constructor(protected readonly diffs: DiffReview) {
        this.toDispose.push(
            vscode.workspace.onDidChangeTextDocument(event => this.refresh(event.document)),
            vscode.window.onDidChangeVisibleTextEditors(editors => editors.forEach(editor => this.refresh(editor.document))),
            diffs.onDidChangePending(() => this.forgetSettled()));
    }

    async acceptChange(): Promise<void> {
        const target = this.target();
        const change = target && this.changeFor(target);
        if (!target || !change) {
            return;
        }
        this.keptOf(target.review).add(change.signature);
        this.refresh(target.editor.document);
        await this.goTo(target, 'next', change.modified.start, true);
    }

    async rejectChange(): Promise<void> {
        const target = this.target();
        const change = target && this.changeFor(target);
        if (!target || !change) {
            return;
        }
        this.keptOf(target.review).delete(change.signature);
        await this.revert(target, change);
        await this.goTo(target, 'next', change.modified.start - 1, true);
    }

    async next(): Promise<void> {
        const target = this.target();
        if (target) {
            await this.goTo(target, 'next', target.editor.selection.active.line + 1, false);
        }
    }

    async previous(): Promise<void> {
        const target = this.target();
        if (target) {
            await this.goTo(target, 'previous', target.editor.selection.active.line + 1, false);
        }
    }

    dispose(): void {
        this.kept.clear();
        this.toDispose.splice(0).forEach(disposable => disposable.dispose());
    }

    /** The proposal of the active editor, with the line its cursor is on (either side of the diff). */
    protected target(): Target | undefined {
        const active = vscode.window.activeTextEditor;
        const review = this.diffs.reviewOf(active?.document.uri);
        const editor = review && this.editorOf(review);
        if (!active || !review || !editor) {
            void vscode.window.showInformationMessage(vscode.l10n.t('The active editor shows no proposed change.'));
            return undefined;
        }
        return { review, editor, line: active.selection.active.line + 1, side: active.document.uri.scheme === ORIGINAL_SCHEME ? 'original' : 'modified' };
    }

    protected changeFor(target: Target): ReviewChange | undefined {
        const change = changeAtLine(this.changesOf(target.review, target.editor.document), target.line, target.side);
        if (!change) {
            void vscode.window.showInformationMessage(vscode.l10n.t('The cursor is not in a change. Use Next Change to go to one.'));
        }
        return change;
    }

    protected changesOf(review: Review, document: vscode.TextDocument): ReviewChange[] {
        return computeReviewChanges(review.original ?? '', document.getText()) ?? [];
    }

    /** Puts the change's lines on the right back to the left side's: an ordinary edit, undone with Ctrl+Z. */
    protected async revert({ review, editor }: Target, change: ReviewChange): Promise<void> {
        const document = editor.document;
        const { start, end, text } = revertEdit(review.original ?? '', document.getText(), change, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
        await editor.edit(builder => builder.replace(new vscode.Range(start.line, start.character, end.line, end.character), text));
    }

    /**
     * Moves to the next (or previous) change after (before) `line` in this proposal, then in the other
     * proposals of the same session, and finally wraps around. After a decision only undecided changes
     * are visited: the review moves on to what is left to decide.
     */
    protected async goTo(target: Target, direction: 'next' | 'previous', line: number, undecidedOnly: boolean): Promise<void> {
        const candidates = (review: Review, document: vscode.TextDocument) => {
            const changes = this.changesOf(review, document);
            const kept = this.kept.get(review.proposal.id);
            return undecidedOnly && kept ? changes.filter(change => !kept.has(change.signature)) : changes;
        };
        const here = candidates(target.review, target.editor.document);
        const inThisFile = changeBeside(here, line, direction);
        if (inThisFile) {
            this.reveal(target.editor, inThisFile);
            return;
        }
        const group = this.diffs.reviewsIn(target.review.proposal.origin.groupId);
        const index = group.indexOf(target.review);
        const others = [...group.slice(index + 1), ...group.slice(0, index)];
        for (const review of direction === 'next' ? others : others.reverse()) {
            const document = await vscode.workspace.openTextDocument(review.right);
            const changes = candidates(review, document);
            const change = direction === 'next' ? changes[0] : changes[changes.length - 1];
            if (change) {
                await this.diffs.show(review);
                const editor = this.editorOf(review);
                if (editor) {
                    this.reveal(editor, change);
                }
                return;
            }
        }
        const wrapped = direction === 'next' ? here[0] : here[here.length - 1];
        if (wrapped) {
            this.reveal(target.editor, wrapped);
        } else if (undecidedOnly) {
            void vscode.window.showInformationMessage(vscode.l10n.t('Every change of this review is decided: accept or reject the file to answer.'));
        }
    }

    protected reveal(editor: vscode.TextEditor, change: ReviewChange): void {
        const line = Math.max(0, Math.min(change.modified.start - 1, editor.document.lineCount - 1));
        editor.selection = new vscode.Selection(line, 0, line, 0);
        editor.revealRange(new vscode.Range(line, 0, Math.max(line, change.modified.end - 2), 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }

    protected editorOf(review: Review): vscode.TextEditor | undefined {
        const right = review.right.toString();
        return vscode.window.visibleTextEditors.find(editor => editor.document.uri.toString() === right);
    }

    protected keptOf(review: Review): Set<string> {
        let kept = this.kept.get(review.proposal.id);
        if (!kept) {
            kept = new Set();
            this.kept.set(review.proposal.id, kept);
        }
        return kept;
    }

    /** Keeps the marks on the changes still kept: an edit inside a kept change makes it undecided again. */
    protected refresh(document: vscode.TextDocument): void {
        if (document.uri.scheme !== PROPOSAL_SCHEME) {
            return;
        }
        const review = this.diffs.reviewOf(document.uri);
        const kept = review && this.kept.get(review.proposal.id);
        if (!review || !kept) {
            return;
        }
        const changes = this.changesOf(review, document);
        const present = new Set(changes.map(change => change.signature));
        for (const signature of kept) {
            if (!present.has(signature)) {
                kept.delete(signature);
            }
        }
        const ranges = changes.filter(change => kept.has(change.signature)).map(change => {
            // A deletion has no line of its own on the right: its mark goes on the line above it.
            const start = Math.max(0, (change.modified.start === change.modified.end ? change.modified.start - 1 : change.modified.start) - 1);
            return new vscode.Range(start, 0, Math.max(start, change.modified.end - 2), 0);
        });
        for (const editor of vscode.window.visibleTextEditors.filter(candidate => candidate.document === document)) {
            editor.setDecorations(this.keptDecoration, ranges.map(range => ({ range, hoverMessage: vscode.l10n.t('You accepted this change') })));
        }
    }

    protected forgetSettled(): void {
        const waiting = new Set(this.diffs.reviewsIn().map(review => review.proposal.id));
        for (const id of this.kept.keys()) {
            if (!waiting.has(id)) {
                this.kept.delete(id);
            }
        }
    }
}
