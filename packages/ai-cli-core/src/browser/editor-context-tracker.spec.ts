import { enableBrowserDom } from './test/browser-dom';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { until } from '@theia-cli-companion/ide-companion-server/lib/common/test';
import { Container } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import URI from '@theia/core/lib/common/uri';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { EditorWidget } from '@theia/editor/lib/browser/editor-widget';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { FileChangeType, FileOperation } from '@theia/filesystem/lib/common/files';
import { WorkspaceTrustService } from '@theia/workspace/lib/browser/workspace-trust-service';
import { MAX_SELECTED_TEXT_LENGTH } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { IdeCompanionBackend } from '../common/ide-companion-protocol';
import { WindowServerStatus, WindowEditorState } from '@theia-cli-companion/ide-companion-server/lib/common';
import { CONTEXT_DEBOUNCE_PREF, CONTEXT_INCLUDE_SELECTION_PREF, IdeCompanionPreferences } from '../common/ide-companion-preferences';
import { EditorContextTracker } from './editor-context-tracker';
import { WindowServerService } from './window-server-service';

disableDom();

interface Position { line: number; character: number }

/** A file editor as Theia's editor widget presents one: its document, cursor, selection and their events. */
class TestEditor {
    readonly cursorChanged = new Emitter<Position>();
    readonly selectionChanged = new Emitter<unknown>();
    readonly disposed = new Emitter<void>();
    cursor: Position = { line: 0, character: 0 };
    selection = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    constructor(readonly uri: URI, readonly text: string) { }

    /** Moves the cursor (0-based) and selects from `start`, as the user does, firing Theia's events. */
    select(start: Position, end: Position = start): void {
        this.selection = { start, end };
        this.cursor = end;
        this.cursorChanged.fire(end);
        this.selectionChanged.fire(this.selection);
    }

    get widget(): EditorWidget {
        const lines = this.text.split('\n');
        const offsetAt = ({ line, character }: Position) => lines.slice(0, line).reduce((sum, text) => sum + text.length + 1, 0) + character;
        const positionAt = (offset: number): Position => {
            let line = 0;
            while (line < lines.length - 1 && offset > lines[line].length) {
                offset -= lines[line].length + 1;
                line++;
            }
            return { line, character: offset };
        };
        const source = this;
        const editor = {
            uri: this.uri,
            get cursor() { return source.cursor; },
            get selection() { return source.selection; },
            document: { offsetAt, positionAt, getText: (range: { start: Position; end: Position }) => this.text.slice(offsetAt(range.start), offsetAt(range.end)) },
            onCursorPositionChanged: this.cursorChanged.event,
            onSelectionChanged: this.selectionChanged.event
        };
        return (this.widgetObject ??= { editor, onDidDispose: this.disposed.event } as unknown as EditorWidget);
    }
    protected widgetObject?: EditorWidget;
}

describe('EditorContextTracker', () => {
    let tracker: EditorContextTracker;
    let sent: WindowEditorState[];
    let status: WindowServerStatus | undefined;
    let preferences: Record<string, unknown>;
    let current: EditorWidget | undefined;
    const created = new Emitter<EditorWidget>();
    const currentChanged = new Emitter<EditorWidget | undefined>();
    const filesChanged = new Emitter<{ changes: { type: FileChangeType; resource: URI }[] }>();
    const operations = new Emitter<{ operation: FileOperation; resource: URI; target?: { resource: URI } }>();
    const trustChanged = new Emitter<boolean>();
    const attached = new Emitter<WindowServerStatus>();
    const preferenceChanged = new Emitter<{ preferenceName: string }>();

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(() => {
        sent = [];
        status = { windowId: 'w' } as WindowServerStatus;
        preferences = { [CONTEXT_DEBOUNCE_PREF]: 10, [CONTEXT_INCLUDE_SELECTION_PREF]: true, onPreferenceChanged: preferenceChanged.event };
        current = undefined;
        const container = new Container();
        container.bind(EditorManager).toConstantValue({
            all: [], get currentEditor() { return current; }, onCreated: created.event, onCurrentEditorChanged: currentChanged.event
        } as unknown as EditorManager);
        container.bind(FileService).toConstantValue({ onDidFilesChange: filesChanged.event, onDidRunOperation: operations.event } as unknown as FileService);
        container.bind(WorkspaceTrustService).toConstantValue({
            getWorkspaceTrust: async () => true, onDidChangeWorkspaceTrust: trustChanged.event
        } as unknown as WorkspaceTrustService);
        container.bind(WindowServerService).toConstantValue({ get status() { return status; }, onDidAttach: attached.event } as unknown as WindowServerService);
        container.bind(IdeCompanionBackend).toConstantValue({
            updateEditorState: async (state: WindowEditorState) => { sent.push(state); }
        } as unknown as IdeCompanionBackend);
        container.bind(IdeCompanionPreferences).toConstantValue(preferences as unknown as IdeCompanionPreferences);
        container.bind(ILogger).toConstantValue({ warn: async () => undefined } as unknown as ILogger);
        container.bind(EditorContextTracker).toSelf().inSingletonScope();
        tracker = container.get(EditorContextTracker);
        tracker.onStart();
    });
    afterEach(() => tracker.onStop());

    /** Opens a file editor and gives it the focus, as Theia's editor manager reports it. */
    const focus = (editor: TestEditor) => {
        created.fire(editor.widget);
        current = editor.widget;
        currentChanged.fire(editor.widget);
    };
    const last = () => sent[sent.length - 1];
    /** The files of the last update without their timestamps (they only order them). */
    const files = () => last()?.openFiles.map(({ timestamp, ...file }) => file);
    const settled = async (count: number) => until(() => sent.length >= count);

    it('sends the open files, most recent first, with the active one\'s 1-based cursor, selection and text, and trust', async () => {
        const a = new TestEditor(new URI('file:///ws/a.ts'), 'const a = 1;\nconst b = 2;\n');
        const b = new TestEditor(new URI('file:///ws/b.ts'), 'b\n');
        focus(a);
        focus(b);
        focus(a);
        a.select({ line: 1, character: 6 }, { line: 1, character: 7 });
        await until(() => files()?.[0]?.selectedText === 'b');
        expect(last().isTrusted).to.equal(true);
        expect(files()).to.deep.equal([
            { uri: 'file:///ws/a.ts', isActive: true, cursor: { line: 2, character: 8 }, selectedText: 'b', selection: { start: { line: 1, character: 6 }, end: { line: 1, character: 7 } } },
            { uri: 'file:///ws/b.ts' }
        ]);
        expect(last().openFiles[0].timestamp).to.be.greaterThan(last().openFiles[1].timestamp);
    });

    it('sends a state only when it differs from the last one sent', async () => {
        const a = new TestEditor(new URI('file:///ws/a.ts'), 'x\n');
        focus(a);
        a.select({ line: 0, character: 1 });
        await settled(1);
        const count = sent.length;
        a.select({ line: 0, character: 1 });
        a.select({ line: 0, character: 1 });
        trustChanged.fire(true);
        a.select({ line: 0, character: 0 });
        await until(() => files()?.[0].cursor?.character === 1);
        expect(sent.length, 'the same state again is not sent').to.equal(count + 1);
    });

    it('follows closed, deleted and renamed files; a split editor keeps its file open', async () => {
        const a = new TestEditor(new URI('file:///ws/a.ts'), 'a\n');
        const split = new TestEditor(new URI('file:///ws/a.ts'), 'a\n');
        const b = new TestEditor(new URI('file:///ws/b.ts'), 'b\n');
        const c = new TestEditor(new URI('file:///ws/c.ts'), 'c\n');
        [a, split, b, c].forEach(focus);
        await until(() => files()?.length === 3);
        a.disposed.fire();
        c.select({ line: 0, character: 1 });
        await until(() => files()?.[0].cursor?.character === 2);
        expect(files()?.map(file => file.uri), 'the split still shows a.ts').to.include('file:///ws/a.ts');
        split.disposed.fire();
        await until(() => !files()?.some(file => file.uri === 'file:///ws/a.ts'));
        filesChanged.fire({ changes: [{ type: FileChangeType.DELETED, resource: new URI('file:///ws/b.ts') }] });
        operations.fire({ operation: FileOperation.MOVE, resource: new URI('file:///ws/c.ts'), target: { resource: new URI('file:///ws/d.ts') } });
        await until(() => files()?.length === 1 && files()?.[0].uri === 'file:///ws/d.ts');
        expect(files()?.[0].isActive).to.equal(true);
    });

    it('leaves out the selected text when the preference says so, and reads at most the clients\' limit of a huge one', async () => {
        const huge = 'x'.repeat(MAX_SELECTED_TEXT_LENGTH * 4);
        const a = new TestEditor(new URI('file:///ws/a.ts'), `${huge}\n`);
        focus(a);
        a.select({ line: 0, character: 0 }, { line: 0, character: huge.length });
        await until(() => !!files()?.[0]?.selectedText);
        expect(files()?.[0].selectedText).to.have.length(MAX_SELECTED_TEXT_LENGTH);
        preferences[CONTEXT_INCLUDE_SELECTION_PREF] = false;
        preferenceChanged.fire({ preferenceName: CONTEXT_INCLUDE_SELECTION_PREF });
        await until(() => files()?.[0]?.selectedText === undefined);
        expect(files()?.[0].selection).to.deep.equal({ start: { line: 0, character: 0 }, end: { line: 0, character: huge.length } });
    });

    it('has no active file while a non-file editor has the focus, and keeps it while a terminal has', async () => {
        const a = new TestEditor(new URI('file:///ws/a.ts'), 'a\n');
        focus(a);
        await until(() => files()?.[0]?.isActive === true);
        await until(() => last()?.isTrusted === true);
        currentChanged.fire(undefined);
        trustChanged.fire(false);
        await until(() => last()?.isTrusted === false);
        expect(files()?.[0]?.isActive, 'a terminal took the focus: the editor stays current').to.equal(true);
        const untitled = new TestEditor(new URI('untitled:Untitled-1'), '');
        current = untitled.widget;
        currentChanged.fire(untitled.widget);
        await until(() => files()?.[0]?.isActive === undefined);
        expect(files()).to.deep.equal([{ uri: 'file:///ws/a.ts' }]);
    });

    it('sends nothing while the window has no companion, and everything again once it attaches', async () => {
        status = undefined;
        const a = new TestEditor(new URI('file:///ws/a.ts'), 'a\n');
        focus(a);
        a.select({ line: 0, character: 1 });
        status = { windowId: 'w' } as WindowServerStatus;
        attached.fire(status);
        await settled(1);
        expect(sent, 'nothing before the window attached').to.have.length(1);
        expect(files()).to.deep.equal([{
            uri: 'file:///ws/a.ts', isActive: true, cursor: { line: 1, character: 2 }, selection: { start: { line: 0, character: 1 }, end: { line: 0, character: 1 } }
        }]);
        // The workspace trust arrives on its own (read at start).
        await until(() => last().isTrusted);
        const count = sent.length;
        attached.fire(status);
        await settled(count + 1);
        expect(last(), 'a re-attached window gets the state again').to.deep.equal(sent[count - 1]);
    });
});
