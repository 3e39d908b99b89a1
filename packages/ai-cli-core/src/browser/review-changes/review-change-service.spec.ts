import { enableBrowserDom } from '../test/browser-dom';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { BaseWidget, Widget } from '@theia/core/lib/browser/widgets/widget';
import { Emitter } from '@theia/core/lib/common/event';
import { MessageService } from '@theia/core/lib/common/message-service';
import { ReviewChange, ReviewChangeEditor, ReviewChangeEditors } from './review-change-editor';
import { ReviewChangeService } from './review-change-service';
import { ReviewDiffRegistry } from './review-diff-registry';

disableDom();

/** A diff editor as the port describes it (Monaco's runs only in a browser): its changes, cursor and what was revealed. */
class DiffEditorModel implements ReviewChangeEditor {
    readonly onDidUpdateChangesEmitter = new Emitter<void>();
    readonly onDidUpdateChanges = this.onDidUpdateChangesEmitter.event;
    cursor = 1;
    revealed: number[] = [];
    constructor(readonly modifiedUri: string, public changeLines: number[]) { }
    async waitForChanges(): Promise<void> { }
    changes(): ReviewChange[] {
        return this.changeLines.map(line => ({ original: { start: line, end: line + 1 }, modified: { start: line, end: line + 1 }, signature: `${this.modifiedUri}:${line}` }));
    }
    changeAtCursor(): ReviewChange | undefined {
        return this.changes().find(change => change.modified.start === this.cursor);
    }
    cursorLine(): number {
        return this.cursor;
    }
    async revert(change: ReviewChange): Promise<void> {
        this.changeLines = this.changeLines.filter(line => line !== change.modified.start);
    }
    reveal(change: ReviewChange): void {
        this.cursor = change.modified.start;
        this.revealed.push(change.modified.start);
    }
    markKept(): void { }
}

describe('ReviewChangeService', () => {
    let service: ReviewChangeService;
    let registry: ReviewDiffRegistry;
    let current: Widget | undefined;
    const editors = new Map<Widget, DiffEditorModel>();

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    /** A review diff of the group with an editor showing changes at these lines; opened (current) when asked. */
    function diff(id: string, groupId: string, lines: number[]): { widget: Widget; editor: DiffEditorModel } {
        const widget = new BaseWidget();
        const editor = new DiffEditorModel(`ai-cli-proposal:/${id}`, lines);
        editors.set(widget, editor);
        registry.add({ id, groupId, widget: () => widget, open: async () => (current = widget) });
        return { widget, editor };
    }

    beforeEach(() => {
        editors.clear();
        const container = new Container();
        container.bind(ReviewDiffRegistry).toSelf().inSingletonScope();
        container.bind(ReviewChangeEditors).toConstantValue({ of: (widget: Widget) => editors.get(widget) });
        container.bind(ApplicationShell).toConstantValue({ get currentWidget(): Widget | undefined { return current; } } as unknown as ApplicationShell);
        container.bind(MessageService).toConstantValue({ info: async () => undefined } as unknown as MessageService);
        container.bind(ReviewChangeService).toSelf().inSingletonScope();
        registry = container.get(ReviewDiffRegistry);
        service = container.get(ReviewChangeService);
    });

    it('Next Change goes from a diff\'s last change to the next diff of the same group, Previous Change back; other groups are not visited', async () => {
        const a = diff('a', 'session-1', [2, 8]);
        diff('other-session', 'session-2', [1]);
        const b = diff('b', 'session-1', [3]);
        current = a.widget;
        a.editor.cursor = 8;
        await service.next();
        expect(current, 'the group\'s next diff opened').to.equal(b.widget);
        expect(b.editor.revealed).to.deep.equal([3]);
        await service.previous();
        expect(current).to.equal(a.widget);
        expect(a.editor.revealed).to.deep.equal([8]);
    });

    it('Reject Change reverts the change at the cursor and moves to the next undecided one; Accept Change keeps it and moves on', async () => {
        const a = diff('a', 'session-1', [2, 5, 8]);
        current = a.widget;
        a.editor.cursor = 2;
        await service.acceptChange();
        expect(a.editor.cursor, 'on to the next change').to.equal(5);
        await service.rejectChange();
        expect(a.editor.changeLines).to.deep.equal([2, 8]);
        expect(a.editor.cursor).to.equal(8);
        expect(service.progress(registry.all()[0])).to.deep.equal({ undecided: 1, total: 2 });
    });
});
