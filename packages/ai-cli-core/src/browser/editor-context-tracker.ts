import { inject, injectable, named } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { ILogger } from '@theia/core/lib/common/logger';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { EditorWidget } from '@theia/editor/lib/browser/editor-widget';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { FileChangeType, FileOperation } from '@theia/filesystem/lib/common/files';
import { WorkspaceTrustService } from '@theia/workspace/lib/browser/workspace-trust-service';
import { MAX_SELECTED_TEXT_LENGTH } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { IdeCompanionBackend } from '../common/ide-companion-protocol';
import { CONTEXT_DEBOUNCE_PREF, CONTEXT_INCLUDE_SELECTION_PREF, IdeCompanionPreferences } from '../common/ide-companion-preferences';
import { OpenEditorsModel, ContextUpdateScheduler, createContextUpdateScheduler } from '@theia-cli-companion/ide-companion-server/lib/common';
import { WindowServerService } from './window-server-service';

export interface EditorTrackingStats {
    /** Cursor and selection changes of the active editor handled. */
    readonly editorEvents: number;
    /** Main-thread time spent in those handlers and in building and sending updates. */
    readonly busyMs: number;
    /** Updates that differed from the previous one and went to the backend. */
    readonly updatesSent: number;
}

/**
 * Streams this window's editor state to its companion server: the most recently focused file
 * editors, the active one's 1-based cursor and selected text, and workspace trust.
 *
 * Updates go through {@link createContextUpdateScheduler}: one update once things are still for the
 * debounce delay, and one at least every `max(5 × delay, 250 ms)` while they never are. Only a state
 * that differs from the last one sent is sent.
 */
@injectable()
export class EditorContextTracker implements FrontendApplicationContribution {

    @inject(EditorManager) protected readonly editorManager: EditorManager;
    @inject(FileService) protected readonly fileService: FileService;
    @inject(WorkspaceTrustService) protected readonly trustService: WorkspaceTrustService;
    @inject(WindowServerService) protected readonly companion: WindowServerService;
    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(IdeCompanionPreferences) protected readonly preferences: IdeCompanionPreferences;
    @inject(ILogger) @named('ai-cli-core:EditorContextTracker') protected readonly logger: ILogger;

    protected readonly model = new OpenEditorsModel();
    protected readonly toDispose = new DisposableCollection();
    protected readonly toDisposeOnCurrentEditor = new DisposableCollection();
    protected readonly widgetSubscriptions = new Map<EditorWidget, DisposableCollection>();
    protected isTrusted = false;
    protected lastSent = '';
    protected scheduleSend: ContextUpdateScheduler;

    onStart(): void {
        this.createScheduler();
        this.toDispose.push(this.preferences.onPreferenceChanged(change => {
            if (change.preferenceName === CONTEXT_DEBOUNCE_PREF) {
                this.scheduleSend.flush();
                this.createScheduler();
            } else if (change.preferenceName === CONTEXT_INCLUDE_SELECTION_PREF) {
                this.updateActiveDetails();
            }
        }));
        this.editorManager.all.forEach(widget => this.track(widget));
        this.toDispose.push(this.editorManager.onCreated(widget => this.track(widget)));
        this.toDispose.push(this.editorManager.onCurrentEditorChanged(widget => this.onCurrentEditorChanged(widget)));
        this.toDispose.push(this.fileService.onDidFilesChange(event => {
            for (const change of event.changes) {
                if (change.type === FileChangeType.DELETED) {
                    this.model.delete(change.resource.toString());
                    this.schedule();
                }
            }
        }));
        this.toDispose.push(this.fileService.onDidRunOperation(event => {
            if (event.operation === FileOperation.MOVE && event.target) {
                this.model.rename(event.resource.toString(), event.target.resource.toString());
                this.schedule();
            } else if (event.operation === FileOperation.DELETE) {
                this.model.delete(event.resource.toString());
                this.schedule();
            }
        }));
        this.toDispose.push(this.trustService.onDidChangeWorkspaceTrust(trusted => {
            this.isTrusted = trusted;
            this.sendNow();
        }));
        // A re-attached window (backend reconnect) must resend, even if nothing changed here.
        this.toDispose.push(this.companion.onDidAttach(() => {
            this.lastSent = '';
            this.updateActiveDetails();
            this.sendNow();
        }));
        this.trustService.getWorkspaceTrust().then(trusted => {
            this.isTrusted = trusted;
            this.onCurrentEditorChanged(this.editorManager.currentEditor);
        }).catch(error => this.logger.warn(`Could not read the workspace trust: ${error}`));
    }

    onStop(): void {
        this.scheduleSend?.cancel();
        this.toDispose.dispose();
        this.toDisposeOnCurrentEditor.dispose();
        this.widgetSubscriptions.forEach(subscriptions => subscriptions.dispose());
    }

    protected createScheduler(): void {
        this.scheduleSend = createContextUpdateScheduler(() => this.send(), this.preferences[CONTEXT_DEBOUNCE_PREF] ?? 50);
    }

    protected isFileEditor(widget: EditorWidget | undefined): widget is EditorWidget {
        return !!widget && widget.editor.uri.scheme === 'file';
    }

    protected track(widget: EditorWidget): void {
        if (!this.isFileEditor(widget) || this.widgetSubscriptions.has(widget)) {
            return;
        }
        const subscriptions = new DisposableCollection();
        this.widgetSubscriptions.set(widget, subscriptions);
        this.model.open(widget.editor.uri.toString());
        subscriptions.push(widget.onDidDispose(() => {
            subscriptions.dispose();
            this.widgetSubscriptions.delete(widget);
            const uri = widget.editor.uri.toString();
            // Another editor of the same file (a split) keeps it open.
            if (![...this.widgetSubscriptions.keys()].some(other => other.editor.uri.toString() === uri)) {
                this.model.close(uri);
                this.schedule();
            }
        }));
        this.schedule();
    }

    protected onCurrentEditorChanged(widget: EditorWidget | undefined): void {
        this.toDisposeOnCurrentEditor.dispose();
        if (!this.isFileEditor(widget)) {
            // Focus went to a non-file editor; when it went to a terminal or elsewhere, the current editor stays.
            if (widget) {
                this.model.blur();
                this.schedule();
            }
            return;
        }
        this.track(widget);
        this.model.focus(widget.editor.uri.toString());
        // Subscribe first: if the details cannot be read yet, the next cursor event brings them.
        this.toDisposeOnCurrentEditor.pushAll([
            widget.editor.onCursorPositionChanged(() => this.updateActiveDetails()),
            widget.editor.onSelectionChanged(() => this.updateActiveDetails())
        ]);
        this.updateActiveDetails();
        this.schedule();
    }

    /** What tracking costs this window, for the diagnostic report and the typing benchmark. */
    get stats(): EditorTrackingStats {
        return { ...this._stats };
    }

    protected readonly _stats: { -readonly [K in keyof EditorTrackingStats]: EditorTrackingStats[K] } = { editorEvents: 0, busyMs: 0, updatesSent: 0 };

    protected updateActiveDetails(): void {
        if (!this.companion.status) {
            // Nobody to tell: skip the per-keystroke work; a (re)attach recomputes the details.
            return;
        }
        const started = performance.now();
        try {
            this.doUpdateActiveDetails();
        } finally {
            this._stats.editorEvents++;
            this._stats.busyMs += performance.now() - started;
        }
    }

    protected doUpdateActiveDetails(): void {
        const widget = this.editorManager.currentEditor;
        if (!this.isFileEditor(widget)) {
            return;
        }
        const editor = widget.editor;
        let cursor: { line: number; character: number };
        try {
            cursor = editor.cursor;
        } catch {
            // Monaco has no position for an editor being re-attached (a tab shown again after the diff in
            // front of it closed): no details yet; the next cursor event brings them.
            return;
        }
        this.model.setActiveDetails(editor.uri.toString(), {
            cursor: { line: cursor.line + 1, character: cursor.character + 1 },
            selectedText: this.preferences[CONTEXT_INCLUDE_SELECTION_PREF] === false ? '' : this.selectedText(widget),
            selection: { start: { ...editor.selection.start }, end: { ...editor.selection.end } }
        });
        this.schedule();
    }

    /** Reads at most the clients' limit, however large the selection: no multi-MB string per keystroke. */
    protected selectedText(widget: EditorWidget): string {
        const { document, selection } = widget.editor;
        const start = document.offsetAt(selection.start);
        const end = Math.min(document.offsetAt(selection.end), start + MAX_SELECTED_TEXT_LENGTH);
        if (end <= start) {
            return '';
        }
        return document.getText({ start: selection.start, end: document.positionAt(end) });
    }

    protected schedule(): void {
        this.scheduleSend();
    }

    protected sendNow(): void {
        this.scheduleSend.cancel();
        this.send();
    }

    protected send(): void {
        const started = performance.now();
        try {
            this.doSend();
        } finally {
            this._stats.busyMs += performance.now() - started;
        }
    }

    protected doSend(): void {
        const state = this.model.snapshot(this.isTrusted);
        const json = JSON.stringify(state);
        if (json === this.lastSent || !this.companion.status) {
            return;
        }
        this.lastSent = json;
        this._stats.updatesSent++;
        this.backend.updateEditorState(state).catch(error => {
            this.lastSent = '';
            this.logger.warn(`Could not send the editor state to the CLI companion: ${error}`);
        });
    }
}
