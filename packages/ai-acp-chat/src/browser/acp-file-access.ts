import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable } from '@theia/core/shared/inversify';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { FileOperationError, FileOperationResult } from '@theia/filesystem/lib/common/files';
import { MonacoTextModelService } from '@theia/monaco/lib/browser/monaco-text-model-service';
import { MonacoEditorModel } from '@theia/monaco/lib/browser/monaco-editor-model';

/**
 * An agent's reads, served the way the user sees the files: an open editor's buffer (unsaved edits
 * included) wins over the disk; and its writes, done by the backend, shown in open editors. The
 * backend has already refused paths outside the workspace folders.
 */
@injectable()
export class AcpFileAccess {

    @inject(FileService) protected readonly fileService: FileService;
    @inject(MonacoTextModelService) protected readonly models: MonacoTextModelService;

    async read(request: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
        const text = await this.currentText(request.path);
        return { content: sliceLines(text, request.line ?? undefined, request.limit ?? undefined) };
    }

    /** A missing file reads as empty: Gemini CLI cannot create a file if its read fails. */
    protected async currentText(filePath: string): Promise<string> {
        const open = this.openModel(filePath);
        if (open) {
            return open.getText();
        }
        try {
            return (await this.fileService.read(FileUri.create(filePath))).value;
        } catch (error) {
            if (error instanceof FileOperationError && error.fileOperationResult === FileOperationResult.FILE_NOT_FOUND) {
                return '';
            }
            throw error;
        }
    }

    /**
     * The backend wrote the file (it writes, not the window: Theia's file service follows symbolic
     * links, see AcpChatBackendImpl.write). An open editor takes the new text from the disk as an edit
     * that can be undone, unsaved edits of its own replaced, as an agent's write always did.
     */
    async reload(filePath: string): Promise<void> {
        await this.openModel(filePath)?.revert();
    }

    protected openModel(filePath: string): MonacoEditorModel | undefined {
        const uri = FileUri.create(filePath).toString();
        return this.models.models.find(model => model.uri === uri);
    }
}

/** Lines `line` (1-based) to `line + limit - 1`, as ACP's read asks. */
export function sliceLines(text: string, line?: number, limit?: number): string {
    if (line === undefined && limit === undefined) {
        return text;
    }
    const lines = text.split('\n');
    const start = Math.max(0, (line ?? 1) - 1);
    return lines.slice(start, limit !== undefined ? start + limit : undefined).join('\n');
}
