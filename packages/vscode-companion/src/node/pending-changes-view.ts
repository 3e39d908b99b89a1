import * as path from 'path';
import * as vscode from 'vscode';
import type { AppliedChange, AppliedChanges } from './applied-changes';
import type { DiffReview, Review } from './diff-review';

export const PENDING_CHANGES_VIEW = 'aiCliCompanion.pendingChanges';

/** A row of Pending Changes; the commands of its inline actions get it as their argument. */
export type PendingChangesNode =
    | { readonly kind: 'session'; readonly groupId: string; readonly label: string }
    | { readonly kind: 'proposal'; readonly id: string }
    | { readonly kind: 'applied-list' }
    | { readonly kind: 'applied'; readonly id: string };

export namespace PendingChangesNode {
    export function is(arg: unknown): arg is PendingChangesNode {
        const kind = (arg as Partial<PendingChangesNode> | undefined)?.kind;
        return typeof arg === 'object' && arg !== null && (kind === 'session' || kind === 'proposal' || kind === 'applied-list' || kind === 'applied');
    }
}

/**
 * Pending Changes (in the Source Control container): the proposals waiting in this window, by session,
 * with Accept and Reject on each row and on each session, and the changes applied without a review
 * (pace "accept automatically") with Undo. A click on a proposal opens its diff.
 */
export class PendingChangesView implements vscode.TreeDataProvider<PendingChangesNode>, vscode.Disposable {
    protected readonly onDidChangeTreeDataEmitter = new vscode.EventEmitter<void>();
    readonly onDidChangeTreeData = this.onDidChangeTreeDataEmitter.event;
    protected readonly view: vscode.TreeView<PendingChangesNode>;
    protected readonly toDispose: vscode.Disposable[] = [];

    constructor(protected readonly diffs: DiffReview, protected readonly applied: AppliedChanges) {
        this.view = vscode.window.createTreeView(PENDING_CHANGES_VIEW, { treeDataProvider: this, showCollapseAll: false });
        this.toDispose.push(this.view, this.onDidChangeTreeDataEmitter,
            diffs.onDidChangePending(() => this.changed()),
            applied.onDidChange(() => this.changed()));
        this.changed();
    }

    /** Shows the view, as "Show Pending Changes" and the status bar menu do. */
    async reveal(): Promise<void> {
        await vscode.commands.executeCommand(`${PENDING_CHANGES_VIEW}.focus`);
    }

    getChildren(node?: PendingChangesNode): PendingChangesNode[] {
        if (!node) {
            const sessions = new Map<string, PendingChangesNode>();
            for (const { proposal: { origin } } of this.diffs.reviewsIn()) {
                if (!sessions.has(origin.groupId)) {
                    sessions.set(origin.groupId, { kind: 'session', groupId: origin.groupId, label: origin.label });
                }
            }
            return [...sessions.values(), ...this.applied.applied.length ? [{ kind: 'applied-list' as const }] : []];
        }
        if (node.kind === 'session') {
            return this.diffs.reviewsIn(node.groupId).map(review => ({ kind: 'proposal', id: review.proposal.id }));
        }
        if (node.kind === 'applied-list') {
            return this.applied.applied.reverse().map(change => ({ kind: 'applied', id: change.proposal.id }));
        }
        return [];
    }

    getTreeItem(node: PendingChangesNode): vscode.TreeItem {
        switch (node.kind) {
            case 'session': {
                const count = this.diffs.reviewsIn(node.groupId).length;
                const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
                item.description = vscode.l10n.t('{0} to review', count);
                item.contextValue = 'aiCliSession';
                item.iconPath = new vscode.ThemeIcon('terminal');
                return item;
            }
            case 'proposal': {
                const review = this.diffs.reviewsIn().find(candidate => candidate.proposal.id === node.id);
                return review ? this.proposalItem(review) : new vscode.TreeItem('');
            }
            case 'applied-list': {
                const item = new vscode.TreeItem(vscode.l10n.t('Applied without review'), vscode.TreeItemCollapsibleState.Expanded);
                item.description = String(this.applied.applied.length);
                item.iconPath = new vscode.ThemeIcon('history');
                return item;
            }
            case 'applied': {
                const change = this.applied.applied.find(candidate => candidate.proposal.id === node.id);
                return change ? this.appliedItem(change) : new vscode.TreeItem('');
            }
        }
    }

    protected proposalItem(review: Review): vscode.TreeItem {
        const fileUri = vscode.Uri.parse(review.proposal.fileUri);
        const item = new vscode.TreeItem(path.basename(fileUri.fsPath));
        item.resourceUri = fileUri;
        // The folder, relative to the workspace; nothing for a file at the top of a folder.
        const relative = path.dirname(vscode.workspace.asRelativePath(fileUri, vscode.workspace.workspaceFolders?.length !== 1));
        item.description = relative === '.' ? undefined : relative;
        item.tooltip = vscode.l10n.t('{0}, proposed by {1}', fileUri.fsPath, review.proposal.proposedBy);
        item.contextValue = 'aiCliProposal';
        item.command = { command: 'aiCliCompanion.openPendingChange', title: vscode.l10n.t('Open Diff'), arguments: [review.proposal.id] };
        return item;
    }

    protected appliedItem(change: AppliedChange): vscode.TreeItem {
        const item = new vscode.TreeItem(path.basename(change.filePath));
        item.resourceUri = vscode.Uri.file(change.filePath);
        item.description = vscode.l10n.t('{0}, {1}', change.proposal.origin.label, new Date(change.appliedAt).toLocaleTimeString());
        item.tooltip = vscode.l10n.t('{0}: accepted automatically; Undo puts back its text from before', change.filePath);
        item.contextValue = 'aiCliApplied';
        item.command = { command: 'vscode.open', title: vscode.l10n.t('Open File'), arguments: [item.resourceUri] };
        return item;
    }

    protected changed(): void {
        const count = this.diffs.reviewsIn().length;
        this.view.badge = count ? { value: count, tooltip: vscode.l10n.t('{0} proposed changes to review', count) } : undefined;
        this.view.message = count || this.applied.applied.length ? undefined : vscode.l10n.t('No proposed change waits for your review.');
        this.onDidChangeTreeDataEmitter.fire();
    }

    dispose(): void {
        this.toDispose.splice(0).forEach(disposable => disposable.dispose());
    }
}
