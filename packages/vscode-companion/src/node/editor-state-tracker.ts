import * as vscode from 'vscode';
import { MAX_SELECTED_TEXT_LENGTH } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { ContextUpdateScheduler, createContextUpdateScheduler, OpenEditorsModel, WindowEditorState } from '@theia-cli-companion/ide-companion-server/lib/common';
import type { CompanionSettings } from './companion-settings';

/**
 * Streams this window's editor state to its companion server: the most recently focused file
 * editors (the window's text tabs), the active one's 1-based cursor and selected text, and workspace
 * trust. Paced like Theia's tracker (`createContextUpdateScheduler`); only a state that differs from
 * the last one sent is sent.
 */
export class EditorStateTracker implements vscode.Disposable {
    protected readonly model = new OpenEditorsModel();
    protected readonly toDispose: vscode.Disposable[] = [];
    protected schedule: ContextUpdateScheduler;
    protected lastSent = '';

    constructor(
        protected readonly settings: CompanionSettings,
        protected readonly send: (state: WindowEditorState) => Promise<void>,
        protected readonly onError: (error: unknown) => void
    ) {
        this.schedule = createContextUpdateScheduler(() => this.sendIfChanged(), settings.debounceMs);
        for (const uri of this.tabUris()) {
            this.model.open(uri);
        }
        this.onActiveEditor(vscode.window.activeTextEditor);
        this.toDispose.push(
            vscode.window.onDidChangeActiveTextEditor(editor => this.onActiveEditor(editor)),
            vscode.window.onDidChangeTextEditorSelection(event => {
                if (event.textEditor === vscode.window.activeTextEditor) {
                    this.updateActiveDetails(event.textEditor);
                }
            }),
            vscode.window.tabGroups.onDidChangeTabs(event => this.onTabs(event)),
            vscode.workspace.onDidDeleteFiles(event => event.files.forEach(uri => this.changed(() => this.model.delete(uri.toString())))),
            vscode.workspace.onDidRenameFiles(event => event.files.forEach(({ oldUri, newUri }) => this.changed(() => this.model.rename(oldUri.toString(), newUri.toString())))),
            vscode.workspace.onDidGrantWorkspaceTrust(() => this.sendNow()),
            vscode.workspace.onDidChangeConfiguration(event => {
                if (settings.affects(event, 'context.debounceMs')) {
                    this.schedule.flush();
                    this.schedule = createContextUpdateScheduler(() => this.sendIfChanged(), settings.debounceMs);
                } else if (settings.affects(event, 'context.includeSelectedText') && vscode.window.activeTextEditor) {
                    this.updateActiveDetails(vscode.window.activeTextEditor);
                }
            })
        );
    }

    /** Sends the current state now, also when it did not change (a new server knows nothing yet). */
    sendNow(): void {
        this.schedule.cancel();
        this.lastSent = '';
        this.sendIfChanged();
    }

    dispose(): void {
        this.schedule.cancel();
        this.toDispose.splice(0).forEach(disposable => disposable.dispose());
    }

    protected onActiveEditor(editor: vscode.TextEditor | undefined): void {
        if (editor?.document.uri.scheme === 'file') {
            this.model.focus(editor.document.uri.toString());
            this.updateActiveDetails(editor);
        } else {
            // A diff, an output, a settings editor, or no text editor: no file is active.
            this.model.blur();
        }
        this.schedule();
    }

    protected updateActiveDetails(editor: vscode.TextEditor): void {
        if (editor.document.uri.scheme !== 'file') {
            return;
        }
        const { active, start, end } = editor.selection;
        this.model.setActiveDetails(editor.document.uri.toString(), {
            cursor: { line: active.line + 1, character: active.character + 1 },
            selectedText: this.settings.includeSelectedText ? this.selectedText(editor.document, editor.selection) : '',
            selection: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } }
        });
        this.schedule();
    }

    /** Reads at most the clients' limit, however large the selection. */
    protected selectedText(document: vscode.TextDocument, selection: vscode.Selection): string {
        const start = document.offsetAt(selection.start);
        const end = Math.min(document.offsetAt(selection.end), start + MAX_SELECTED_TEXT_LENGTH);
        return end > start ? document.getText(new vscode.Range(selection.start, document.positionAt(end))) : '';
    }

    protected onTabs(event: vscode.TabChangeEvent): void {
        const open = new Set(this.tabUris());
        for (const tab of event.opened) {
            const uri = fileUriOf(tab);
            if (uri) {
                this.model.open(uri);
            }
        }
        for (const tab of event.closed) {
            const uri = fileUriOf(tab);
            // Another tab of the same file (a split) keeps it open.
            if (uri && !open.has(uri)) {
                this.model.close(uri);
            }
        }
        this.schedule();
    }

    protected tabUris(): string[] {
        return vscode.window.tabGroups.all.flatMap(group => group.tabs).map(fileUriOf).filter((uri): uri is string => !!uri);
    }

    protected changed(update: () => void): void {
        update();
        this.schedule();
    }

    protected sendIfChanged(): void {
        const state = this.model.snapshot(vscode.workspace.isTrusted);
        const serialized = JSON.stringify(state);
        if (serialized === this.lastSent) {
            return;
        }
        this.lastSent = serialized;
        this.send(state).catch(error => {
            this.lastSent = '';
            this.onError(error);
        });
    }
}

function fileUriOf(tab: vscode.Tab): string | undefined {
    return tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file' ? tab.input.uri.toString() : undefined;
}
