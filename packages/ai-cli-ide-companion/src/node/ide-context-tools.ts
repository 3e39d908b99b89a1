import * as path from 'path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { z } from 'zod';
import {
    DocumentArgumentsSchema, GetDiagnosticsArgumentsSchema, IdeContextToolName, NoArgumentsSchema, OpenFileArgumentsSchema, IdeContext
} from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { isInsideRoots } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { IdeCompanionFrontendClient } from '../common/ide-companion-protocol';
import { CompanionLogger } from './companion-logger';
import { textResult, validatedTools } from './mcp-tool-results';

export interface IdeContextToolsOptions {
    readonly logger: CompanionLogger;
    readonly frontend: () => IdeCompanionFrontendClient | undefined;
    /** The window's realpath'd workspace roots. */
    readonly roots: () => readonly string[];
    /** The editor state last pushed to the CLIs: open files, active file, cursor, selection. */
    readonly context: () => IdeContext | undefined;
}

/**
 * The IDE tools beyond diffs: what an agent may ask of the window (its folders, editors, selection,
 * problems, dirty documents) and do in it (save, open a file at a range). Every answer is one text
 * block of JSON; every path must lie in the window's workspace folders.
 */
export class IdeContextTools {

    constructor(protected readonly options: IdeContextToolsOptions) { }

    registerTools(mcp: McpServer): void {
        const validated = validatedTools(mcp, this.options.logger);
        // Every answer of these tools is one text block of JSON.
        const tool = <S extends z.ZodTypeAny>(name: string, description: string, schema: S, run: (args: z.infer<S>) => Promise<unknown>) =>
            validated(name, description, schema, async args => textResult(JSON.stringify(await run(args))));
        tool(IdeContextToolName.GET_WORKSPACE_FOLDERS, 'Lists the workspace folders open in the Theia window: {"folders": [{"path", "name"}]}.', NoArgumentsSchema,
            async () => ({ folders: this.options.roots().map(root => ({ path: root, name: path.basename(root) })) }));
        tool(IdeContextToolName.GET_OPEN_EDITORS,
            'Lists the files open in the Theia window, most recently used first, with the cursor (1-based) and selection of the active one.', NoArgumentsSchema,
            async () => ({ editors: this.options.context()?.workspaceState?.openFiles ?? [] }));
        tool(IdeContextToolName.GET_CURRENT_SELECTION,
            'The active editor\'s file, cursor (1-based) and selected text; {"filePath": null} when no file editor is active.', NoArgumentsSchema,
            async () => {
                const active = this.options.context()?.workspaceState?.openFiles?.find(file => file.isActive);
                return active ? { filePath: active.path, cursor: active.cursor ?? null, selectedText: active.selectedText ?? '' } : { filePath: null };
            });
        tool(IdeContextToolName.GET_DIAGNOSTICS,
            'Problems (errors, warnings) Theia knows for one file, or for every file when filePath is omitted; positions 1-based.', GetDiagnosticsArgumentsSchema,
            async ({ filePath }) => ({ files: await this.window.getDiagnostics(filePath ? await this.uriInWorkspace(filePath) : undefined) }));
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

    protected get window(): IdeCompanionFrontendClient {
        const frontend = this.options.frontend();
        if (!frontend) {
            throw new Error('The Theia window of this session is not open (closed or reloading)');
        }
        return frontend;
    }

    protected uriInWorkspace(filePath: string): Promise<string> {
        return fileUriInWorkspace(filePath, this.options.roots());
    }
}

/** The `file://` URI of an absolute path inside the workspace folders; throws with the reason otherwise. */
export async function fileUriInWorkspace(filePath: string, roots: readonly string[]): Promise<string> {
    if (!path.isAbsolute(filePath)) {
        throw new Error(`filePath must be absolute, got ${JSON.stringify(filePath)}`);
    }
    if (!await isInsideRoots(filePath, roots)) {
        throw new Error(`${filePath} is outside the workspace folders of this window (${roots.join(', ') || 'none'})`);
    }
    return FileUri.create(path.normalize(filePath)).toString();
}
