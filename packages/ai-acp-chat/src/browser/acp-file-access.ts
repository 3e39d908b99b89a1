import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable } from '@theia/core/shared/inversify';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { FileOperationError, FileOperationResult } from '@theia/filesystem/lib/common/files';
import { MonacoTextModelService } from '@theia/monaco/lib/browser/monaco-text-model-service';
import { MonacoEditorModel } from '@theia/monaco/lib/browser/monaco-editor-model';

/**
 * An agent's reads and writes, served the way the user sees the files: an open editor's buffer
 * (unsaved edits included) wins over the disk, and writes go through that buffer and are saved,
 * so open editors show them and undo works. The backend has already refused paths outside the
 * workspace folders.
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

    async write(filePath: string, content: string): Promise<void> {
        const open = this.openModel(filePath);
        if (open) {
            const model = open.textEditorModel;
            model.pushEditOperations([], [{ range: model.getFullModelRange(), text: content }], () => null);
            await open.save();
            return;
        }
        const uri = FileUri.create(filePath);
        if (await this.fileService.exists(uri)) {
            await this.fileService.write(uri, content);
        } else {
            await this.fileService.create(uri, content);
        }
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
