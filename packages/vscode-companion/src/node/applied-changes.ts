import * as path from 'path';
import * as vscode from 'vscode';
import { DiffProposal, fromRpcText } from '@theia-cli-companion/ide-companion-server/lib/common';
import { FileUri, MAX_LEDGER_FILE_BYTES, WindowLogger, WindowServer } from '@theia-cli-companion/ide-companion-server/lib/node';
import { readFileBounded } from '@theia-cli-companion/safe-files/lib/node';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';

/** A proposal accepted without a review of its own (pace "accept automatically"), kept for Undo. */
export interface AppliedChange {
    readonly proposal: DiffProposal;
    readonly filePath: string;
    /** The window's ledger keeps the file's bytes from before under this id. */
    readonly undoId: string;
    readonly appliedAt: number;
}

/** The window server's ledger of the bytes from before such changes, while the server runs. */
export type LedgerSource = () => WindowServer['applied'] | undefined;

/**
 * The changes of this window applied without a review (Pending Changes lists them with Undo). The
 * bytes from before each are kept by the window server's `AppliedChangeLedger`, as in the Theia host:
 * reads and writes checked against the workspace folders.
 */
export class AppliedChanges implements vscode.Disposable {
    protected readonly changes = new Map<string, AppliedChange>();
    protected readonly onDidChangeEmitter = new vscode.EventEmitter<void>();
    readonly onDidChange = this.onDidChangeEmitter.event;

    constructor(protected readonly ledger: LedgerSource, protected readonly logger: WindowLogger) { }

    /** Oldest first. */
    get applied(): AppliedChange[] {
        return [...this.changes.values()];
    }

    /**
     * Keeps the file's bytes from before, so that the proposal can be accepted unseen and undone later.
     * False when they cannot be kept (a path the ledger refuses, a file too large): the proposal is then
     * reviewed as usual.
     */
    async acceptUnseen(proposal: DiffProposal): Promise<boolean> {
        const filePath = FileUri.fsPath(proposal.fileUri);
        const ledger = this.ledger();
        if (!ledger) {
            return false;
        }
        let undoId: string;
        try {
            undoId = await ledger.record(filePath);
        } catch (error) {
            this.logger.warn(`Could not keep ${filePath} for Undo (${describeError(error)}); the change is opened for review instead of being accepted automatically`);
            return false;
        }
        this.changes.set(proposal.id, { proposal, filePath, undoId, appliedAt: Date.now() });
        this.logger.info(`Accepted the change ${proposal.origin.label} proposed to ${filePath} (review pace: accept automatically)`);
        this.onDidChangeEmitter.fire();
        return true;
    }

    /**
     * Puts the file back as it was before the change. If it changed since (the user edited it, or the
     * CLI wrote something else), the user is asked first: the later changes would be lost.
     */
    async undo(id: string): Promise<void> {
        const change = this.changes.get(id);
        const ledger = this.ledger();
        if (!change || !ledger) {
            return;
        }
        // Read as every file a CLI can shape: a named pipe or a device in its place must not hang the host (readFileBounded).
        const now = await readFileBounded(change.filePath, { maxBytes: MAX_LEDGER_FILE_BYTES, followLink: true });
        const applied = fromRpcText(change.proposal.newContent).replace(/^\uFEFF/, '');
        if (now.kind !== 'absent' && (now.kind !== 'content' || now.content.toString('utf8').replace(/^\uFEFF/, '') !== applied)) {
            const undo = vscode.l10n.t('Undo');
            const answer = await vscode.window.showWarningMessage(vscode.l10n.t(
                '{0} changed since the change was applied; undoing puts back the text from before it, and the later changes are lost.',
                path.basename(change.filePath)), { modal: true }, undo);
            if (answer !== undo) {
                return;
            }
        }
        try {
            await ledger.restore(change.undoId);
        } catch (error) {
            void vscode.window.showErrorMessage(vscode.l10n.t('Could not undo the change to {0}: {1}', path.basename(change.filePath), describeError(error)));
            return;
        }
        this.changes.delete(id);
        this.logger.info(`Undid the change ${change.proposal.origin.label} made to ${change.filePath}`);
        this.onDidChangeEmitter.fire();
    }

    /** The window's server stopped: its ledger went with it, so nothing can be undone any more. */
    clear(): void {
        if (this.changes.size) {
            this.changes.clear();
            this.onDidChangeEmitter.fire();
        }
    }

    dispose(): void {
        this.changes.clear();
        this.onDidChangeEmitter.dispose();
    }
}
