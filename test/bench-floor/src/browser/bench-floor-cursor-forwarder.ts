import { inject, injectable } from '@theia/core/shared/inversify';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { EditorManager, EditorWidget } from '@theia/editor/lib/browser';
import { BenchFloorService } from '../common/bench-floor-protocol';

/**
 * The context floor as an extension's frontend stands on it: on each cursor move in the current editor, the
 * payload an IDE-mode extension sends (the file, its cursor and selected text, trust), sent at once over
 * Theia's RPC to the floor's backend, which writes it to its SSE clients. No debounce, no validation, no
 * state. Off until the bench turns it on (`follow`), so that no other figure pays for it.
 */
@injectable()
export class BenchFloorCursorForwarder implements FrontendApplicationContribution {

    @inject(EditorManager)
    protected readonly editors: EditorManager;

    @inject(BenchFloorService)
    protected readonly service: BenchFloorService;

    protected readonly toDispose = new DisposableCollection();
    protected readonly toDisposeOnEditor = new DisposableCollection();
    protected following = false;

    onStart(): void {
        this.toDispose.push(this.toDisposeOnEditor);
        this.toDispose.push(this.editors.onCurrentEditorChanged(widget => this.watch(widget)));
        this.watch(this.editors.currentEditor);
    }

    onStop(): void {
        this.toDispose.dispose();
    }

    follow(on: boolean): void {
        this.following = on;
    }

    protected watch(widget: EditorWidget | undefined): void {
        this.toDisposeOnEditor.dispose();
        const editor = widget?.editor;
        if (!editor) {
            return;
        }
        this.toDisposeOnEditor.push(editor.onCursorPositionChanged(position => {
            if (!this.following) {
                return;
            }
            void this.service.pushPayload({
                workspaceState: {
                    openFiles: [{
                        path: editor.uri.path.fsPath(), timestamp: Date.now(), isActive: true,
                        cursor: { line: position.line + 1, character: position.character + 1 },
                        selectedText: editor.document.getText(editor.selection)
                    }],
                    isTrusted: true
                }
            });
        }));
    }
}
