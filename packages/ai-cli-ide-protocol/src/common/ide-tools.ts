import { z } from 'zod';

/** Names of the MCP tools a CLI calls on the companion. */
export namespace IdeToolName {
    export const OPEN_DIFF = 'openDiff';
    export const CLOSE_DIFF = 'closeDiff';
}

export const OpenDiffArgumentsSchema = z.object({
    filePath: z.string().min(1).describe('Absolute path of the file to show a diff for.'),
    newContent: z.string().describe('The proposed new content of the file.')
}).strict();
export type OpenDiffArguments = z.infer<typeof OpenDiffArgumentsSchema>;

export const CloseDiffArgumentsSchema = z.object({
    filePath: z.string().min(1).describe('Absolute path of the file whose diff view should close.'),
    suppressNotification: z.boolean().optional()
        .describe('When true, the IDE sends no ide/diffAccepted or ide/diffRejected for this diff.')
}).strict();
export type CloseDiffArguments = z.infer<typeof CloseDiffArgumentsSchema>;

/** The JSON carried in closeDiff's single text block; the clients `JSON.parse` it. */
export const CloseDiffResultSchema = z.object({
    content: z.string().nullable()
}).strict();
export type CloseDiffResult = z.infer<typeof CloseDiffResultSchema>;

/**
 * The IDE tools beyond diffs, for agents that use the window as an MCP server (ACP agents get the
 * window's server in session/new). Paths are absolute and must lie in the window's workspace
 * folders; lines and characters are 1-based, as in `ide/contextUpdate`.
 */
export namespace IdeContextToolName {
    export const GET_WORKSPACE_FOLDERS = 'getWorkspaceFolders';
    export const GET_OPEN_EDITORS = 'getOpenEditors';
    export const GET_CURRENT_SELECTION = 'getCurrentSelection';
    export const GET_DIAGNOSTICS = 'getDiagnostics';
    export const CHECK_DOCUMENT_DIRTY = 'checkDocumentDirty';
    export const SAVE_DOCUMENT = 'saveDocument';
    export const OPEN_FILE = 'openFile';
}

/** Every IDE tool name, as `tools/list` shows them to every session. */
export const IDE_CONTEXT_TOOL_NAMES: readonly string[] = Object.freeze(Object.values(IdeContextToolName));

export const NoArgumentsSchema = z.object({}).strict();

export const GetDiagnosticsArgumentsSchema = z.object({
    filePath: z.string().min(1).optional().describe('Absolute path of one file; all files with problems when omitted.')
}).strict();
export type GetDiagnosticsArguments = z.infer<typeof GetDiagnosticsArgumentsSchema>;

export const DocumentArgumentsSchema = z.object({
    filePath: z.string().min(1).describe('Absolute path of the document.')
}).strict();
export type DocumentArguments = z.infer<typeof DocumentArgumentsSchema>;

export const OpenFileArgumentsSchema = z.object({
    filePath: z.string().min(1).describe('Absolute path of the file to open in the editor.'),
    startLine: z.number().int().min(1).optional().describe('First line to reveal (1-based).'),
    endLine: z.number().int().min(1).optional().describe('Last line of the range (1-based); with select, the range is selected.'),
    select: z.boolean().optional().describe('Select the lines from startLine to endLine instead of only moving the cursor there.')
}).strict().refine(args => args.endLine === undefined || (args.startLine !== undefined && args.endLine >= args.startLine),
    { message: 'endLine needs a startLine at or before it', path: ['endLine'] });
export type OpenFileArguments = z.infer<typeof OpenFileArgumentsSchema>;

export const DiagnosticSchema = z.object({
    severity: z.enum(['error', 'warning', 'information', 'hint']),
    message: z.string(),
    source: z.string().optional(),
    code: z.string().optional(),
    range: z.object({
        start: z.object({ line: z.number().int(), character: z.number().int() }),
        end: z.object({ line: z.number().int(), character: z.number().int() })
    })
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

export const FileDiagnosticsSchema = z.object({ filePath: z.string(), diagnostics: z.array(DiagnosticSchema) });
export type FileDiagnostics = z.infer<typeof FileDiagnosticsSchema>;

export const DocumentStateSchema = z.object({ filePath: z.string(), isOpen: z.boolean(), isDirty: z.boolean() });
export type DocumentState = z.infer<typeof DocumentStateSchema>;
