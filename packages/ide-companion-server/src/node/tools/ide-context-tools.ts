import * as path from 'path';
import { inject, injectable } from 'inversify';
import { FileUri } from '../file-uri';
import { z } from 'zod';
import {
    DocumentArgumentsSchema, FileDiagnostics, GetDiagnosticsArgumentsSchema, IdeContextToolName, NoArgumentsSchema, OpenFileArgumentsSchema
} from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { checkInsideRoots, describeRefusal, isInsideRoots } from '@theia-cli-companion/safe-files/lib/node';
import { WindowEditorClient } from '../../common/window-protocol';
import { McpSessionContext, McpToolContribution } from './mcp-tool-contribution';
import { textResult, validatedTools } from './mcp-tool-results';
import { WindowContext } from '../window-context';

/**
 * The IDE tools beyond diffs, for every Streamable HTTP session (Gemini CLI, Qwen Code, ACP agents):
 * what a CLI may ask of the window (its folders, editors, selection, problems, dirty documents) and do
 * in it (save, open a file at a range). Every answer is one text block of JSON; every path must lie in
 * the window's workspace folders, and editors and problems of files outside them are not told.
 */
@injectable()
export class IdeContextTools implements McpToolContribution {

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    registerTools({ mcp, transport }: McpSessionContext): void {
        if (transport !== 'mcp-streamable-http') {
            return;
        }
        const validated = validatedTools(mcp, this.windowContext.log);
        // Every answer of these tools is one text block of JSON.
        const tool = <S extends z.ZodTypeAny>(name: string, description: string, schema: S, run: (args: z.infer<S>) => Promise<unknown>) =>
            validated(name, description, schema, async args => textResult(JSON.stringify(await run(args))));
        tool(IdeContextToolName.GET_WORKSPACE_FOLDERS, 'Lists the workspace folders open in the Theia window: {"folders": [{"path", "name"}]}.', NoArgumentsSchema,
            async () => ({ folders: this.windowContext.roots.map(root => ({ path: root, name: path.basename(root) })) }));
        tool(IdeContextToolName.GET_OPEN_EDITORS,
            'Lists the files open in the Theia window, most recently used first, with the cursor (1-based) and selection of the active one.', NoArgumentsSchema,
            async () => ({ editors: this.windowContext.context?.workspaceState?.openFiles ?? [] }));
        tool(IdeContextToolName.GET_CURRENT_SELECTION,
            'The active editor\'s file, cursor (1-based) and selected text; {"filePath": null} when no file editor is active.', NoArgumentsSchema,
            async () => {
                const active = this.windowContext.context?.workspaceState?.openFiles?.find(file => file.isActive);
                return active ? { filePath: active.path, cursor: active.cursor ?? null, selectedText: active.selectedText ?? '' } : { filePath: null };
            });
        tool(IdeContextToolName.GET_DIAGNOSTICS,
            'Problems (errors, warnings) Theia knows for one file, or for every file when filePath is omitted; positions 1-based.', GetDiagnosticsArgumentsSchema,
            async ({ filePath }) => ({
                files: filePath
                    ? await this.window.getDiagnostics(await this.uriInWorkspace(filePath))
                    : await diagnosticsWithinRoots(await this.window.getDiagnostics(undefined), this.windowContext.roots)
            }));
        tool(IdeContextToolName.CHECK_DOCUMENT_DIRTY, 'Whether the file is open in an editor and has unsaved changes: {"filePath", "isOpen", "isDirty"}.', DocumentArgumentsSchema,
            async ({ filePath }) => this.window.getDocumentState(await this.uriInWorkspace(filePath)));
        tool(IdeContextToolName.SAVE_DOCUMENT, 'Saves the file\'s open editor (nothing happens to a file that is not open); answers its state afterwards.', DocumentArgumentsSchema,
            async ({ filePath }) => this.window.saveDocument(await this.uriInWorkspace(filePath)));
        tool(IdeContextToolName.OPEN_FILE, 'Opens the file in the Theia editor, at startLine (1-based), selecting through endLine when select is true.', OpenFileArgumentsSchema,
            async ({ filePath, startLine, endLine, select }) => {
                await this.window.openFile({ fileUri: await this.uriInWorkspace(filePath), startLine, endLine, select });
                return { opened: filePath };
            });
    }

    protected get window(): WindowEditorClient {
        return this.windowContext.window;
    }

    protected uriInWorkspace(filePath: string): Promise<string> {
        return fileUriInWorkspace(filePath, this.windowContext.roots);
    }
}

/** The problems of files inside the workspace folders only: the window also knows those of files opened from elsewhere. */
export async function diagnosticsWithinRoots(files: FileDiagnostics[], roots: readonly string[]): Promise<FileDiagnostics[]> {
    const inside = await Promise.all(files.map(file => isInsideRoots(file.filePath, roots)));
    return files.filter((_file, index) => inside[index]);
}

/** The `file://` URI of an absolute path inside the workspace folders; throws with the reason otherwise. */
export async function fileUriInWorkspace(filePath: string, roots: readonly string[]): Promise<string> {
    if (!path.isAbsolute(filePath)) {
        throw new Error(`filePath must be absolute, got ${JSON.stringify(filePath)}`);
    }
    const refusal = describeRefusal(filePath, await checkInsideRoots(filePath, roots), roots);
    if (refusal) {
        throw new Error(`${filePath} ${refusal}`);
    }
    return FileUri.create(path.normalize(filePath)).toString();
}
