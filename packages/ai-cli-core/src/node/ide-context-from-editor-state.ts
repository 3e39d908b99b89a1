import { FileUri } from '@theia/core/lib/common/file-uri';
import { IdeContext, IdeContextSchema } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { truncateSelection, WindowEditorState } from '../common/open-editors-model';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

/**
 * Turns a window's editor state (from the browser, so untrusted) into the `ide/contextUpdate` params
 * the CLIs accept. Throws with the reason when the state is malformed; the caller keeps the last good one.
 */
export function ideContextFromEditorState(state: WindowEditorState): IdeContext {
    if (!state || !Array.isArray(state.openFiles) || typeof state.isTrusted !== 'boolean') {
        throw new Error('Editor state must have an openFiles array and a boolean isTrusted');
    }
    const openFiles = state.openFiles.filter(file => typeof file?.uri === 'string' && file.uri.startsWith('file:')).map(file => ({
        path: FileUri.fsPath(file.uri),
        timestamp: file.timestamp,
        ...(file.isActive ? { isActive: true } : {}),
        ...(file.isActive && file.cursor ? { cursor: { line: file.cursor.line, character: file.cursor.character } } : {}),
        ...(file.isActive && typeof file.selectedText === 'string' && file.selectedText ? { selectedText: truncateSelection(file.selectedText) } : {})
    }));
    const parsed = IdeContextSchema.safeParse({ workspaceState: { openFiles, isTrusted: state.isTrusted } });
    if (!parsed.success) {
        throw new Error(`Invalid editor state: ${formatZodIssues(parsed.error, 'state')}`);
    }
    return parsed.data;
}

/** The same context with nobody looking at anything: what CLIs see while the window is away. */
export function withoutActiveEditor(context: IdeContext): IdeContext {
    const openFiles = context.workspaceState?.openFiles?.map(file => ({ path: file.path, timestamp: file.timestamp }));
    return { workspaceState: { ...context.workspaceState, ...(openFiles ? { openFiles } : {}) } };
}
