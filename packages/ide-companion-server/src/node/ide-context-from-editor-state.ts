import { FileUri } from './file-uri';
import { IdeContext, IdeContextSchema } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { truncateSelection, WindowEditorState } from '../common/open-editors-model';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { isInsideRoots } from '@theia-cli-companion/safe-files/lib/node';

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

/**
 * The state with only the editors of files inside the workspace folders (symlinks resolved, as every
 * path a CLI names is judged): a file the user opened from elsewhere (a key, another project) is
 * nobody's business but the user's. Every answer about editors (open files, selection, contextUpdate,
 * Claude Code's selection_changed) comes from this. A malformed state is left for
 * {@link ideContextFromEditorState} to refuse with the reason.
 *
 * `verdicts` keeps each URI's verdict for the same roots: a state comes with every cursor move, and
 * resolving ten paths component by component each time cost 2.3 ms per update (measured, ten files
 * five folders deep). The caller clears it when the roots change; URIs no longer open are dropped.
 */
export async function editorsWithinRoots(state: WindowEditorState, roots: readonly string[], verdicts = new Map<string, Promise<boolean>>()): Promise<WindowEditorState> {
    if (!state || !Array.isArray(state.openFiles)) {
        return state;
    }
    const uris = new Set(state.openFiles.map(file => file?.uri));
    [...verdicts.keys()].filter(uri => !uris.has(uri)).forEach(uri => verdicts.delete(uri));
    const inside = await Promise.all(state.openFiles.map(file => {
        if (typeof file?.uri !== 'string' || !file.uri.startsWith('file:')) {
            return Promise.resolve(false);
        }
        let verdict = verdicts.get(file.uri);
        if (!verdict) {
            verdict = isInsideRoots(FileUri.fsPath(file.uri), roots).catch(() => false);
            verdicts.set(file.uri, verdict);
        }
        return verdict;
    }));
    return { ...state, openFiles: state.openFiles.filter((_file, index) => inside[index]) };
}

/** The same context with nobody looking at anything: what CLIs see while the window is away. */
export function withoutActiveEditor(context: IdeContext): IdeContext {
    const openFiles = context.workspaceState?.openFiles?.map(file => ({ path: file.path, timestamp: file.timestamp }));
    return { workspaceState: { ...context.workspaceState, ...(openFiles ? { openFiles } : {}) } };
}
