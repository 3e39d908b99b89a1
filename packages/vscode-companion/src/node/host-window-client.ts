import * as vscode from 'vscode';
import type { Diagnostic, DocumentState, FileDiagnostics } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import {
    WindowEvent, DiffProposal, WindowEditorClient, OpenFileRequest, RpcText, toRpcText, WindowServerStatus
} from '@theia-cli-companion/ide-companion-server/lib/common';
import { FileUri } from '@theia-cli-companion/ide-companion-server/lib/node';
import type { DiffReview } from './diff-review';

const SEVERITIES: Record<vscode.DiagnosticSeverity, Diagnostic['severity']> = {
    [vscode.DiagnosticSeverity.Error]: 'error', [vscode.DiagnosticSeverity.Warning]: 'warning',
    [vscode.DiagnosticSeverity.Information]: 'information', [vscode.DiagnosticSeverity.Hint]: 'hint'
};

/**
 * The window's editor side as the companion server sees it, in-process: what the Theia frontend
 * answers over RPC, answered here with the VS Code API (diff review, problems, documents, editors).
 */
export class HostWindowClient implements WindowEditorClient {
    constructor(
        protected readonly diffs: DiffReview,
        protected readonly onStatus: (status: WindowServerStatus) => void
    ) { }

    notifyStatusChanged(status: WindowServerStatus): void {
        this.onStatus(status);
    }

    notifyEvent(_event: WindowEvent): void {
        // The window's events already reach the output channel: the server logs them to it.
    }

    openDiff(proposal: DiffProposal): Promise<void> {
        return this.diffs.open(proposal);
    }

    async closeDiff(id: string): Promise<RpcText | undefined> {
        const text = await this.diffs.close(id);
        return text === undefined ? undefined : toRpcText(text);
    }

    async getDiagnostics(fileUri?: string): Promise<FileDiagnostics[]> {
        const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = fileUri
            ? [[vscode.Uri.parse(fileUri), vscode.languages.getDiagnostics(vscode.Uri.parse(fileUri))]]
            : vscode.languages.getDiagnostics();
        return entries.filter(([uri, diagnostics]) => uri.scheme === 'file' && diagnostics.length > 0).map(([uri, diagnostics]) => ({
            filePath: uri.fsPath,
            diagnostics: diagnostics.map(diagnostic => ({
                severity: SEVERITIES[diagnostic.severity],
                message: diagnostic.message,
                ...(diagnostic.source ? { source: diagnostic.source } : {}),
                ...(diagnostic.code !== undefined ? { code: String(typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code) } : {}),
                range: {
                    start: { line: diagnostic.range.start.line, character: diagnostic.range.start.character },
                    end: { line: diagnostic.range.end.line, character: diagnostic.range.end.character }
                }
            }))
        }));
    }

    async getDocumentState(fileUri: string): Promise<DocumentState> {
        const document = this.documentOf(fileUri);
        return { filePath: FileUri.fsPath(fileUri), isOpen: !!document, isDirty: !!document?.isDirty };
    }

    async saveDocument(fileUri: string): Promise<DocumentState> {
        await this.documentOf(fileUri)?.save();
        return this.getDocumentState(fileUri);
    }

    async openFile(request: OpenFileRequest): Promise<void> {
        const start = request.startLine !== undefined ? new vscode.Position(request.startLine - 1, 0) : undefined;
        const end = request.endLine !== undefined && request.select ? new vscode.Position(request.endLine, 0) : start;
        await vscode.window.showTextDocument(vscode.Uri.parse(request.fileUri), {
            preview: false,
            ...(start ? { selection: new vscode.Range(start, end ?? start) } : {})
        });
    }

    protected documentOf(fileUri: string): vscode.TextDocument | undefined {
        const uri = vscode.Uri.parse(fileUri).toString();
        return vscode.workspace.textDocuments.find(document => document.uri.toString() === uri);
    }
}
