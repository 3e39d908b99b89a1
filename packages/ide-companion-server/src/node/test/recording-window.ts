import { FileUri } from '../file-uri';
import type { DocumentState, FileDiagnostics } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { DiffProposal, WindowEditorClient, OpenFileRequest } from '../../common/window-protocol';
import { fromRpcText, RpcText, toRpcText } from '../../common/rpc-text';

/**
 * Stands in for the browser window (the far end of an RPC connection): records what it is asked,
 * and answers the IDE tools from what a test put in it.
 */
export class RecordingWindow implements WindowEditorClient {
    /** Proposals as the window decodes them from the RPC. */
    readonly opened: (Omit<DiffProposal, 'newContent'> & { newContent: string })[] = [];
    readonly closed: string[] = [];
    rightSide = new Map<string, string>();
    diagnostics: FileDiagnostics[] = [];
    /** Open documents by path, and whether each is dirty. */
    readonly documents = new Map<string, boolean>();
    readonly saved: string[] = [];
    readonly openedFiles: OpenFileRequest[] = [];
    /** While set, openDiff answers only once this settles (a window slow to show the diff). */
    openDiffHold?: Promise<void>;

    notifyStatusChanged(): void { }
    notifyEvent(): void { }
    async openDiff(proposal: DiffProposal): Promise<void> {
        this.opened.push({ ...proposal, newContent: fromRpcText(proposal.newContent) });
        this.rightSide.set(proposal.id, fromRpcText(proposal.newContent));
        await this.openDiffHold;
    }
    async closeDiff(id: string): Promise<RpcText | undefined> {
        this.closed.push(id);
        const text = this.rightSide.get(id);
        return text === undefined ? undefined : toRpcText(text);
    }
    async getDiagnostics(fileUri?: string): Promise<FileDiagnostics[]> {
        return fileUri ? this.diagnostics.filter(file => file.filePath === FileUri.fsPath(fileUri)) : this.diagnostics;
    }
    async getDocumentState(fileUri: string): Promise<DocumentState> {
        const filePath = FileUri.fsPath(fileUri);
        return { filePath, isOpen: this.documents.has(filePath), isDirty: this.documents.get(filePath) === true };
    }
    async saveDocument(fileUri: string): Promise<DocumentState> {
        const filePath = FileUri.fsPath(fileUri);
        if (this.documents.get(filePath)) {
            this.saved.push(filePath);
            this.documents.set(filePath, false);
        }
        return this.getDocumentState(fileUri);
    }
    async openFile(request: OpenFileRequest): Promise<void> {
        this.openedFiles.push(request);
    }
}
