import { enableBrowserDom } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { ChatAgentLocation, CommandChatResponseContent, MarkdownChatResponseContent, MutableChatModel, MutableChatRequestModel } from '@theia/ai-chat';
import { MessageService } from '@theia/core/lib/common/message-service';
import { OpenerService } from '@theia/core/lib/browser/opener-service';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import URI from '@theia/core/lib/common/uri';
import { AcpChatBackend, AcpRestoreResult, AcpTurnCheckpoint, AcpTurnFileChange } from '../../common/acp-chat-protocol';
import { AcpTurnChangeElement } from './acp-turn-change-element';
import { AcpTurnChanges, RESTORE_TURN_COMMAND } from './acp-turn-changes';
import { theiaChatMarkdown } from '../agent-markdown/test/theia-chat-markdown';

disableDom();

describe('AcpTurnChanges', () => {
    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    let request: MutableChatRequestModel;
    let turnChanges: AcpTurnChanges;
    let restoreCalls: { turnId: string; options: unknown }[];
    let restoreResults: AcpRestoreResult[];
    let recorded: AcpTurnCheckpoint;
    let answer: string | undefined;
    let warnings: string[];
    let dirtyEditors: { path: string; reverted: boolean }[];

    const change = (relativePath: string, restoredAt?: number): AcpTurnFileChange =>
        ({ path: `/w/${relativePath}`, relativePath, kind: 'modified', reviewable: true, binary: false, ...(restoredAt ? { restoredAt } : {}) });

    beforeEach(() => {
        restoreCalls = [];
        restoreResults = [];
        warnings = [];
        dirtyEditors = [];
        answer = undefined;
        const model = new MutableChatModel(ChatAgentLocation.Panel);
        request = model.addRequest({ request: { text: 'edit' }, parts: [], toolRequests: new Map(), variables: [] }, 'acp-test');
        const backend = {
            restoreTurn: async (_chat: string, turnId: string, options: unknown) => {
                restoreCalls.push({ turnId, options });
                return restoreResults.shift()!;
            },
            turnCheckpoint: async () => recorded
        } as unknown as AcpChatBackend;
        const container = new Container();
        container.bind(AcpChatBackend).toConstantValue(backend);
        container.bind(MessageService).toConstantValue({
            warn: async (message: string) => { warnings.push(message); return answer; },
            info: async () => undefined
        } as unknown as MessageService);
        container.bind(OpenerService).toConstantValue({} as OpenerService);
        container.bind(WorkspaceService).toConstantValue({
            roots: Promise.resolve([{ resource: new URI('file:///w') }, { resource: new URI('untitled:/x') }])
        } as unknown as WorkspaceService);
        container.bind(EditorManager).toConstantValue({
            get all(): unknown[] {
                return dirtyEditors.map(editor => ({
                    editor: { uri: new URI(`file://${editor.path}`) },
                    saveable: {
                        dirty: !editor.reverted, onDirtyChanged: () => ({ dispose: () => undefined }), onContentChanged: () => ({ dispose: () => undefined }),
                        save: async () => undefined, revert: async () => { editor.reverted = true; }
                    }
                }));
            }
        } as unknown as EditorManager);
        container.bind(AcpTurnChanges).toSelf().inSingletonScope();
        turnChanges = container.get(AcpTurnChanges);
    });

    const elements = () => request.changeSet!.getElements() as AcpTurnChangeElement[];

    it('names a file whose name holds line breaks and a command: link without making it a link', async () => {
        turnChanges.record(request, { turnId: request.id, changes: [change('a\n\n[x](command:aiCliCompanion.acceptAllDiffs)\n\n`')], truncated: false }, 'Fake');
        const markdown = request.response.response.content.filter((content): content is MarkdownChatResponseContent => MarkdownChatResponseContent.is(content));
        const rendered = await theiaChatMarkdown(markdown[0].content);
        expect(rendered.links).to.deep.equal([]);
        expect(rendered.opened).to.deep.equal([]);
        expect(rendered.text).to.contain('Changed in this turn:').and.to.contain('command:aiCliCompanion.acceptAllDiffs');
    });

    it('lists the turn\'s files as change set elements and under the answer (twenty at most there), with the restore button', () => {
        const changes = Array.from({ length: 23 }, (_, index) => change(`f${index}.txt`));
        changes[0] = change('odd`name.txt');
        turnChanges.record(request, { turnId: request.id, changes, truncated: false }, 'Fake');
        expect(elements().map(element => element.change.relativePath)).to.have.length(23);
        expect(elements().every(element => element.state === 'applied' && element.type === 'modify')).to.equal(true);
        expect(request.changeSet!.title).to.equal('Changed by Fake');
        const text = request.response.response.asString();
        expect(text).to.contain('Changed in this turn: `odd\'name.txt`, `f1.txt`').and.to.contain('`f19.txt` and 3 more.');
        const button = request.response.response.content.find((content): content is CommandChatResponseContent => content.kind === 'command')!;
        expect(button.command?.id).to.equal(RESTORE_TURN_COMMAND.id);
        expect(button.arguments).to.deep.equal([request.session.id, request.id]);
    });

    it('names a file that could not be read as changed and not restorable, and says when a turn could not be recorded', () => {
        const pipe: AcpTurnFileChange = { ...change('b.txt'), reviewable: false, unreadable: 'it is now a named pipe, which is never read' };
        turnChanges.record(request, { turnId: request.id, changes: [change('a.txt'), pipe], truncated: false, error: '/w/other: git failed' }, 'Fake');
        expect(request.response.response.asString()).to.contain('Changed in this turn: `a.txt`, `b.txt` (could not be read; not restorable).')
            .and.to.contain('Not everything this turn changed could be recorded: `/w/other: git failed`.');
        expect(elements().map(element => element.additionalInfo)).to.deep.equal(['a.txt', 'b.txt (could not be read; not restorable)']);

        const model = new MutableChatModel(ChatAgentLocation.Panel);
        const unrecorded = model.addRequest({ request: { text: 'edit' }, parts: [], toolRequests: new Map(), variables: [] }, 'acp-test-2');
        const error = '/w: the folder was recorded by git at one end and file by file at the other';
        turnChanges.record(unrecorded, { turnId: unrecorded.id, changes: [], truncated: false, error }, 'Fake');
        expect(unrecorded.response.response.asString()).to.contain('Not everything this turn changed could be recorded: `/w: the folder was recorded by git at one end');
        expect(unrecorded.changeSet).to.equal(undefined);
    });

    it('writes nothing over files changed since until the user answers; "Restore Only the Others" skips them; the elements show what was restored', async () => {
        recorded = { turnId: request.id, changes: [change('a.txt'), change('b.txt')], truncated: false };
        turnChanges.record(request, recorded, 'Fake');
        dirtyEditors = [{ path: '/w/b.txt', reverted: false }];
        restoreResults = [{ kind: 'changed-since', files: ['/w/b.txt'] }, { kind: 'restored', restored: ['/w/a.txt'], failed: [] }];
        answer = 'Restore Only the Others';
        recorded = { ...recorded, changes: [change('a.txt', 1), change('b.txt')] };
        await turnChanges.restore({ chatSessionId: request.session.id, turnId: request.id });
        // Both ask with the window's folders now (the backend writes nowhere else).
        expect(restoreCalls.map(call => call.options)).to.deep.equal([
            { files: undefined, overwrite: [], skip: [], dirty: ['/w/b.txt'], roots: ['/w'] },
            { files: undefined, overwrite: [], skip: ['/w/b.txt'], dirty: ['/w/b.txt'], roots: ['/w'] }
        ]);
        expect(warnings[0]).to.contain('b.txt').and.not.contain('a.txt');
        expect(elements().map(element => element.state)).to.deep.equal(['pending', 'applied']);
        expect(dirtyEditors[0].reverted, 'an editor skipped keeps its unsaved edits').to.equal(false);
    });

    it('overwrites only when told to, and an overwritten editor drops its unsaved edits; closing the question restores nothing', async () => {
        recorded = { turnId: request.id, changes: [change('b.txt')], truncated: false };
        turnChanges.record(request, recorded, 'Fake');
        dirtyEditors = [{ path: '/w/b.txt', reverted: false }];
        restoreResults = [{ kind: 'changed-since', files: ['/w/b.txt'] }];
        await turnChanges.restore({ chatSessionId: request.session.id, turnId: request.id });
        expect(restoreCalls).to.have.length(1);

        restoreResults = [{ kind: 'changed-since', files: ['/w/b.txt'] }, { kind: 'restored', restored: ['/w/b.txt'], failed: [] }];
        answer = 'Overwrite Them';
        await turnChanges.restore({ chatSessionId: request.session.id, turnId: request.id });
        expect(restoreCalls[2].options).to.deep.include({ overwrite: ['/w/b.txt'], skip: [] });
        expect(dirtyEditors[0].reverted).to.equal(true);
    });
});
