import { inject, injectable } from '@theia/core/shared/inversify';
import URI from '@theia/core/lib/common/uri';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { ProblemManager } from '@theia/markers/lib/browser/problem/problem-manager';
import { DiagnosticSeverity } from '@theia/core/shared/vscode-languageserver-protocol';
import type { Diagnostic, DocumentState, FileDiagnostics } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { OpenFileRequest } from '@theia-cli-companion/ide-companion-server/lib/common';
import { IdeToolsHandler } from './window-editor-client-impl';
import { TextModels } from './text-models';

const SEVERITIES: Record<number, Diagnostic['severity']> = {
    [DiagnosticSeverity.Error]: 'error', [DiagnosticSeverity.Warning]: 'warning',
    [DiagnosticSeverity.Information]: 'information', [DiagnosticSeverity.Hint]: 'hint'
};

/**
 * The window's answers to the IDE tools an agent calls: problems from Theia's markers, the
 * documents' dirty state and saving them, opening a file at a range. Positions are 1-based.
 */
@injectable()
export class WindowIdeTools implements IdeToolsHandler {

    @inject(ProblemManager) protected readonly problems: ProblemManager;
    @inject(TextModels) protected readonly models: TextModels;
    @inject(EditorManager) protected readonly editors: EditorManager;

    async getDiagnostics(fileUri?: string): Promise<FileDiagnostics[]> {
        const markers = this.problems.findMarkers(fileUri ? { uri: new URI(fileUri) } : undefined);
        const byFile = new Map<string, Diagnostic[]>();
        for (const marker of markers) {
            const uri = new URI(marker.uri);
            if (uri.scheme !== 'file') {
                continue;
            }
            const { range, message, source, code, severity } = marker.data;
            const list = byFile.get(marker.uri) ?? [];
            list.push({
                severity: SEVERITIES[severity ?? DiagnosticSeverity.Error] ?? 'error', message,
                ...(source ? { source } : {}), ...(code !== undefined ? { code: String(code) } : {}),
                range: {
                    start: { line: range.start.line + 1, character: range.start.character + 1 },
                    end: { line: range.end.line + 1, character: range.end.character + 1 }
                }
            });
            byFile.set(marker.uri, list);
        }
        return [...byFile].map(([uri, diagnostics]) => ({ filePath: FileUri.fsPath(uri), diagnostics }));
    }

    async getDocumentState(fileUri: string): Promise<DocumentState> {
        const model = this.models.loaded(new URI(fileUri));
        return { filePath: FileUri.fsPath(fileUri), isOpen: !!model, isDirty: !!model?.dirty };
    }

    async saveDocument(fileUri: string): Promise<DocumentState> {
        await this.models.save(new URI(fileUri));
        return this.getDocumentState(fileUri);
    }

    async openFile(request: OpenFileRequest): Promise<void> {
        const start = request.startLine !== undefined ? { line: request.startLine - 1, character: 0 } : undefined;
        const end = request.endLine !== undefined && request.select ? { line: request.endLine, character: 0 } : start;
        await this.editors.open(new URI(request.fileUri), {
            mode: 'activate',
            ...(start ? { selection: { start, end: end ?? start } } : {})
        });
    }
}
