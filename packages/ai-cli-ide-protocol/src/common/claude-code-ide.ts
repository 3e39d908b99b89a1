import { z } from 'zod';
import { DiscoveryFileWriterSchema } from './discovery-files';

/*
 * Claude Code's own IDE contract (checked against @anthropic-ai/claude-code 2.1.332, see
 * shared/reference/claude-code-ide.md and PROTOCOL.md): MCP over a WebSocket on 127.0.0.1, found
 * through a lock file, authenticated by a header.
 */

/** The terminal variable that makes `claude` connect to exactly this window's port. */
export const CLAUDE_CODE_PORT_VARIABLE = 'CLAUDE_CODE_SSE_PORT';
/** The upgrade request header carrying the lock file's `authToken`. */
export const CLAUDE_CODE_AUTH_HEADER = 'x-claude-code-ide-authorization';
/** The WebSocket subprotocol the CLI offers and the server must select. */
export const CLAUDE_CODE_SUBPROTOCOL = 'mcp';

/** `<dir>/ide/<PORT>.lock`. */
export const ClaudeLockFileSchema = z.object({
    pid: z.number().int().positive(),
    workspaceFolders: z.array(z.string()),
    ideName: z.string().min(1),
    transport: z.literal('ws'),
    authToken: z.string().min(1),
    runningInWindows: z.boolean().optional(),
    theiaCompanion: DiscoveryFileWriterSchema.optional()
}).passthrough();
export type ClaudeLockFile = z.infer<typeof ClaudeLockFileSchema>;

export const ClaudeToolName = {
    OPEN_DIFF: 'openDiff',
    CLOSE_TAB: 'close_tab',
    CLOSE_ALL_DIFF_TABS: 'closeAllDiffTabs',
    GET_DIAGNOSTICS: 'getDiagnostics',
    GET_OPEN_EDITORS: 'getOpenEditors',
    GET_WORKSPACE_FOLDERS: 'getWorkspaceFolders',
    GET_CURRENT_SELECTION: 'getCurrentSelection',
    GET_LATEST_SELECTION: 'getLatestSelection',
    CHECK_DOCUMENT_DIRTY: 'checkDocumentDirty',
    SAVE_DOCUMENT: 'saveDocument',
    OPEN_FILE: 'openFile'
} as const;

/** Blocking: answered when the user accepts (`FILE_SAVED`, then the final text) or rejects (`DIFF_REJECTED`). */
export const ClaudeOpenDiffArgumentsSchema = z.object({
    old_file_path: z.string().min(1),
    new_file_path: z.string().min(1),
    new_file_contents: z.string(),
    tab_name: z.string().min(1).max(1000)
}).passthrough();

export const ClaudeCloseTabArgumentsSchema = z.object({ tab_name: z.string().min(1).max(1000) }).passthrough();
export const ClaudeNoArgumentsSchema = z.object({}).passthrough();
/** `uri`: a `file://` URI or a path; omitted for every file's problems. */
export const ClaudeGetDiagnosticsArgumentsSchema = z.object({ uri: z.string().min(1).optional() }).passthrough();
export const ClaudeDocumentArgumentsSchema = z.object({ filePath: z.string().min(1) }).passthrough();
/** Lines are 1-based here (as the editors' openFile tools take them); `startText`/`endText` select by content. */
export const ClaudeOpenFileArgumentsSchema = z.object({
    filePath: z.string().min(1),
    preview: z.boolean().optional(),
    startLine: z.number().int().positive().optional(),
    endLine: z.number().int().positive().optional(),
    startText: z.string().optional(),
    endText: z.string().optional(),
    selectToEndOfLine: z.boolean().optional(),
    makeFrontmost: z.boolean().optional()
}).passthrough();

/** 0-based, as in LSP. */
export const ClaudePositionSchema = z.object({ line: z.number().int().nonnegative(), character: z.number().int().nonnegative() });

/** IDE → CLI: what the user selected (or where the cursor is: `isEmpty`). */
export const ClaudeSelectionChangedSchema = z.object({
    text: z.string(),
    filePath: z.string(),
    fileUrl: z.string(),
    selection: z.object({ start: ClaudePositionSchema, end: ClaudePositionSchema, isEmpty: z.boolean() })
});
export type ClaudeSelectionChanged = z.infer<typeof ClaudeSelectionChangedSchema>;

/** IDE → CLI: "send this to Claude": the CLI inserts `@file#La-b` into its prompt (0-based lines). */
export const ClaudeAtMentionedSchema = z.object({
    filePath: z.string().min(1),
    lineStart: z.number().int().nonnegative().optional(),
    lineEnd: z.number().int().nonnegative().optional()
});
export type ClaudeAtMentioned = z.infer<typeof ClaudeAtMentionedSchema>;

/** CLI → IDE, right after initialization. */
export const ClaudeIdeConnectedSchema = z.object({ pid: z.number().int().positive() }).passthrough();

export const ClaudeNotificationMethod = {
    SELECTION_CHANGED: 'selection_changed',
    AT_MENTIONED: 'at_mentioned',
    IDE_CONNECTED: 'ide_connected'
} as const;

/** The texts of a blocking openDiff answer. */
export const CLAUDE_DIFF_ANSWER = { SAVED: 'FILE_SAVED', REJECTED: 'DIFF_REJECTED', TAB_CLOSED: 'TAB_CLOSED' } as const;
