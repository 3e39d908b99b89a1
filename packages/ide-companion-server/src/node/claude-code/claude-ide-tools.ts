import * as path from 'path';
import { inject, injectable } from 'inversify';
import { FileUri } from '../file-uri';
import {
    CLAUDE_DIFF_ANSWER, ClaudeCloseTabArgumentsSchema, ClaudeDocumentArgumentsSchema, ClaudeGetDiagnosticsArgumentsSchema, ClaudeNoArgumentsSchema,
    ClaudeOpenDiffArgumentsSchema, ClaudeOpenFileArgumentsSchema, ClaudeToolName, Diagnostic
} from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { readFileBounded } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { IdeCompanionFrontendClient } from '../../common';
import { ClaudeWebSocketServer } from './claude-websocket-server';
import { DiffReviewManager } from '../diff/diff-review-manager';
import { diagnosticsWithinRoots, fileUriInWorkspace } from '../tools/ide-context-tools';
import { McpSessionContext, McpToolContribution } from '../tools/mcp-tool-contribution';
import { textResult, toolError, validatedTools } from '../tools/mcp-tool-results';
import { WindowContext } from '../window-context';

const SEVERITY_NAMES: Record<Diagnostic['severity'], string> = { error: 'Error', warning: 'Warning', information: 'Information', hint: 'Hint' };

/**
 * The tools of Claude Code's IDE contract, answered in the shapes the editors that serve it use
 * (one text block, mostly JSON; 0-based positions), from the same window services the other CLIs use:
 * the editor tracker's state, Theia's markers and editors, and the diff review.
 */
@injectable()
export class ClaudeIdeTools implements McpToolContribution {

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    @inject(DiffReviewManager)
    protected readonly diffs: DiffReviewManager;

    /** Where the selections Claude Code was told about are kept. */
    @inject(ClaudeWebSocketServer)
    protected readonly endpoint: ClaudeWebSocketServer;

    registerTools({ mcp, sessionId, transport }: McpSessionContext): void {
        if (transport !== 'claude-code-websocket') {
            return;
        }
        const tool = validatedTools(mcp, this.windowContext.log);
        const json = (value: unknown) => textResult(JSON.stringify(value));

        tool(ClaudeToolName.OPEN_DIFF, 'Shows a proposed change as an editable Monaco diff and waits for the user: FILE_SAVED and the final text, or DIFF_REJECTED.',
            ClaudeOpenDiffArgumentsSchema, async ({ new_file_path, new_file_contents, tab_name }) => {
                const answer = await this.diffs.openBlockingDiff(sessionId, { filePath: new_file_path, newContent: new_file_contents, tabName: tab_name });
                if (typeof answer === 'string') {
                    return toolError(answer);
                }
                return answer.accepted ? textResult(CLAUDE_DIFF_ANSWER.SAVED, answer.content) : textResult(CLAUDE_DIFF_ANSWER.REJECTED, tab_name);
            });
        tool(ClaudeToolName.CLOSE_TAB, 'Closes the diff tab of that name.', ClaudeCloseTabArgumentsSchema, async ({ tab_name }) => {
            await this.diffs.closeDiffsOf(sessionId, tab_name);
            return textResult(CLAUDE_DIFF_ANSWER.TAB_CLOSED);
        });
        tool(ClaudeToolName.CLOSE_ALL_DIFF_TABS, 'Closes every diff this session opened.', ClaudeNoArgumentsSchema,
            async () => textResult(`CLOSED_${await this.diffs.closeDiffsOf(sessionId)}_DIFF_TABS`));
        tool(ClaudeToolName.GET_DIAGNOSTICS, 'Problems (errors, warnings) Theia knows, for one file (uri) or all; 0-based ranges.', ClaudeGetDiagnosticsArgumentsSchema,
            async ({ uri }) => {
                const fileUri = uri ? await fileUriInWorkspace(uri.startsWith('file:') ? FileUri.fsPath(uri) : uri, this.windowContext.roots) : undefined;
                const files = fileUri ? await this.window.getDiagnostics(fileUri)
                    : await diagnosticsWithinRoots(await this.window.getDiagnostics(undefined), this.windowContext.roots);
                return json(files.map(file => ({
                    uri: FileUri.create(file.filePath).toString(),
                    diagnostics: file.diagnostics.map(diagnostic => ({
                        message: diagnostic.message,
                        severity: SEVERITY_NAMES[diagnostic.severity],
                        range: {
                            start: { line: diagnostic.range.start.line - 1, character: diagnostic.range.start.character - 1 },
                            end: { line: diagnostic.range.end.line - 1, character: diagnostic.range.end.character - 1 }
                        },
                        ...(diagnostic.source ? { source: diagnostic.source } : {}),
                        ...(diagnostic.code ? { code: diagnostic.code } : {})
                    }))
                })));
            });
        tool(ClaudeToolName.GET_OPEN_EDITORS, 'The files open in the Theia window, most recently used first.', ClaudeNoArgumentsSchema, async () => json({
            tabs: (this.windowContext.context?.workspaceState?.openFiles ?? []).map(file => ({
                uri: FileUri.create(file.path).toString(), isActive: !!file.isActive, label: path.basename(file.path), fileName: file.path
            }))
        }));
        tool(ClaudeToolName.GET_WORKSPACE_FOLDERS, 'The workspace folders of the Theia window.', ClaudeNoArgumentsSchema, async () => {
            const roots = this.windowContext.roots;
            return json({
                success: true,
                folders: roots.map(root => ({ name: path.basename(root), uri: FileUri.create(root).toString(), path: root })),
                rootPath: roots[0] ?? null
            });
        });
        tool(ClaudeToolName.GET_CURRENT_SELECTION, 'The active editor\'s selection (or cursor); 0-based.', ClaudeNoArgumentsSchema, async () => {
            const selection = this.endpoint.currentSelection;
            return json(selection ? { success: true, ...selection } : { success: false, message: 'No active editor found' });
        });
        tool(ClaudeToolName.GET_LATEST_SELECTION, 'The most recent selection in any editor of the window; 0-based.', ClaudeNoArgumentsSchema, async () => {
            const selection = this.endpoint.latestSelection;
            return json(selection ? { success: true, ...selection } : { success: false, message: 'No selection available' });
        });
        tool(ClaudeToolName.CHECK_DOCUMENT_DIRTY, 'Whether the file has unsaved changes in an editor of the window.', ClaudeDocumentArgumentsSchema, async ({ filePath }) => {
            const state = await this.window.getDocumentState(await fileUriInWorkspace(filePath, this.windowContext.roots));
            return json(state.isOpen
                ? { success: true, filePath, isDirty: state.isDirty, isUntitled: false }
                : { success: false, message: `Document not open: ${filePath}` });
        });
        tool(ClaudeToolName.SAVE_DOCUMENT, 'Saves the file\'s open editor.', ClaudeDocumentArgumentsSchema, async ({ filePath }) => {
            const state = await this.window.saveDocument(await fileUriInWorkspace(filePath, this.windowContext.roots));
            return json(state.isOpen
                ? { success: true, filePath, saved: !state.isDirty, message: state.isDirty ? 'Document could not be saved' : 'Document saved successfully' }
                : { success: false, message: `Document not open: ${filePath}` });
        });
        tool(ClaudeToolName.OPEN_FILE, 'Opens the file in the Theia editor, optionally selecting lines (1-based) or the text from startText to endText.',
            ClaudeOpenFileArgumentsSchema, async args => {
                const fileUri = await fileUriInWorkspace(args.filePath, this.windowContext.roots);
                const range = args.startText ? await findTextRange(args.filePath, this.windowContext.roots, args.startText, args.endText) : undefined;
                const startLine = range?.startLine ?? args.startLine;
                const endLine = range?.endLine ?? args.endLine ?? startLine;
                await this.window.openFile({ fileUri, startLine, endLine, select: startLine !== undefined && (range !== undefined || args.endLine !== undefined) });
                return args.makeFrontmost === false
                    ? json({ success: true, filePath: args.filePath, message: `Opened file: ${args.filePath}` })
                    : textResult(`Opened file: ${args.filePath}`);
            });
    }

    protected get window(): IdeCompanionFrontendClient {
        return this.windowContext.window;
    }
}

/** Files searched for `startText` at most: a larger one (or a pipe, a device) is not searched. */
export const MAX_OPEN_FILE_SEARCH_BYTES = 16 * 1024 * 1024;

/**
 * The 1-based lines from the first line containing `startText` through the next containing `endText`. The file is
 * read bounded, inside the roots, never a pipe or a device (see readFileBounded); one that cannot be read is an error.
 */
async function findTextRange(
    filePath: string, roots: readonly string[], startText: string, endText?: string
): Promise<{ startLine: number; endLine: number } | undefined> {
    const read = await readFileBounded(filePath, { roots, maxBytes: MAX_OPEN_FILE_SEARCH_BYTES, followLink: true });
    if (read.kind === 'unreadable') {
        throw new Error(`Cannot search ${filePath} for startText: it ${read.reason}`);
    }
    const lines = (read.kind === 'content' ? read.content.toString('utf8') : '').split(/\r?\n/);
    const start = lines.findIndex(line => line.includes(startText));
    if (start < 0) {
        return undefined;
    }
    const end = endText ? lines.findIndex((line, index) => index >= start && line.includes(endText)) : start;
    return { startLine: start + 1, endLine: (end < 0 ? start : end) + 1 };
}
