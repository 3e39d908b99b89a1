import { FileUri } from '../file-uri';
import { ClaudeSelectionChanged, ClaudeSelectionChangedSchema } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { truncateSelection, WindowEditorState } from '../../common';

/**
 * The `selection_changed` params for the window's active file editor (0-based, as Claude Code
 * expects), from the editor state the browser sent; undefined when no file editor is active or the
 * state carries no valid selection.
 */
export function claudeSelectionFromEditorState(state: WindowEditorState): ClaudeSelectionChanged | undefined {
    const active = state?.openFiles?.find(file => file?.isActive && typeof file.uri === 'string' && file.uri.startsWith('file:'));
    if (!active?.selection) {
        return undefined;
    }
    const { start, end } = active.selection;
    const parsed = ClaudeSelectionChangedSchema.safeParse({
        text: typeof active.selectedText === 'string' ? truncateSelection(active.selectedText) : '',
        filePath: FileUri.fsPath(active.uri),
        fileUrl: active.uri,
        selection: { start, end, isEmpty: start?.line === end?.line && start?.character === end?.character }
    });
    return parsed.success ? parsed.data : undefined;
}
