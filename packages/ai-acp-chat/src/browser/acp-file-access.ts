import { inject, injectable } from '@theia/core/shared/inversify';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { MonacoTextModelService } from '@theia/monaco/lib/browser/monaco-text-model-service';
import { MonacoEditorModel } from '@theia/monaco/lib/browser/monaco-editor-model';

/**
 * The window's part in an agent's reads and writes, so they are served the way the user sees the
 * files: an open editor's buffer (unsaved edits included) wins over the disk, and writes show in open
 * editors. The disk itself is read and written by the backend, inside the workspace folders only:
 * Theia's file service follows symbolic links, and a link planted after the check would redirect it.
 */
@injectable()
export class AcpFileAccess {

    @inject(MonacoTextModelService) protected readonly models: MonacoTextModelService;

    /** The open editor's text of the file (unsaved edits included); the backend reads the disk when there is none. */
    openEditorText(filePath: string): string | undefined {
        return this.openModel(filePath)?.getText();
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
