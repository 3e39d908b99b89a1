import { enableBrowserDom, DiffReviewTestbed, ReviewWidget, until } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import type * as acp from '@agentclientprotocol/sdk';
import { ChatAgentLocation, MutableChatModel, MutableChatRequestModel, QuestionResponseContent } from '@theia/ai-chat';
import type { ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import { Deferred } from '@theia/core/lib/common/promise-util';
import { AcpChatTurn } from './acp-chat-turn';

disableDom();

const FILE = '/workspace/a.ts';
const OPTIONS: acp.PermissionOption[] = [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' }
];

/** A permission request of an edit tool call, as an ACP agent sends it, with the change as a diff. */
function editPermission(): { params: acp.RequestPermissionRequest; toolCall: ToolCallState } {
    const toolCall: ToolCallState = {
        toolCallId: 'call-1', title: 'Write a.ts', kind: 'edit', status: 'pending', locations: [{ path: FILE }],
        content: [{ type: 'diff', path: FILE, oldText: 'old\n', newText: 'proposed\n' }]
    };
    return { params: { sessionId: 'session-1', toolCall: { toolCallId: 'call-1' }, options: OPTIONS } as acp.RequestPermissionRequest, toolCall };
}

describe('ACP permission requests in the chat', () => {
    let bed: DiffReviewTestbed;
    let request: MutableChatRequestModel;
    let turn: AcpChatTurn;
    let replaced: string[];

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(() => {
        bed = new DiffReviewTestbed();
        bed.files.set(`file://${FILE}`, 'old\n');
        const model = new MutableChatModel(ChatAgentLocation.Panel);
        request = model.addRequest({ request: { text: 'change a.ts' }, parts: [], toolRequests: new Map(), variables: [] }, 'acp-test');
        replaced = [];
        // The disk as the agent sees it: the testbed's files, which the backend would read and write.
        turn = new AcpChatTurn(request, 'Test Agent', bed.service, () => undefined, {
            read: async filePath => bed.files.contents.get(`file://${filePath}`)?.text,
            replaceWritten: async (filePath, expected, reviewed) => {
                if (bed.files.contents.get(`file://${filePath}`)?.text !== expected) {
                    return false;
                }
                bed.files.set(`file://${filePath}`, reviewed);
                replaced.push(filePath);
                return true;
            }
        });
    });

    const question = () => request.response.response.content.find((content): content is QuestionResponseContent => content.kind === 'question')!;
    const ask = async () => {
        const { params, toolCall } = editPermission();
        const outcome = turn.askPermission(params, toolCall);
        await until(() => bed.opened.length === 1);
        return { outcome, review: bed.opened[0] as ReviewWidget };
    };

    it('asks in the chat and opens the change as a review; accepting it allows once', async () => {
        const { outcome, review } = await ask();
        expect(question().question).to.contain('Test Agent asks to run: Write a.ts');
        expect(question().options.map(option => option.value)).to.deep.equal(['allow', 'always', 'reject']);
        expect(request.response.isWaitingForInput).to.equal(true);
        expect(bed.service.pending[0]).to.deep.include({ fileUri: `file://${FILE}`, newContent: 'proposed\n', fileExists: true, proposedBy: 'Test Agent' });

        await bed.service.accept(bed.service.pending[0].id);
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'allow' });
        expect(question().selectedOption?.value).to.equal('allow');
        expect(request.response.isWaitingForInput).to.equal(false);
        expect(review.isDisposed).to.equal(true);
        expect(bed.resolved, 'nothing goes to a CLI session').to.deep.equal([]);
    });

    it('allows an edited proposal, and the agent\'s write of its own text becomes the user\'s, once', async () => {
        const { outcome, review } = await ask();
        bed.models.edited.set(review.proposalUri, 'proposed, then edited\n');
        await bed.service.accept(bed.service.pending[0].id);
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'allow' });
        const write = { sessionId: 'session-1', path: FILE, content: 'proposed\n' };
        expect(turn.contentToWrite({ ...write, path: '/workspace/other.ts' })).to.equal('proposed\n');
        expect(turn.contentToWrite({ ...write, content: 'something else\n' }), 'a different write is the agent\'s own').to.equal('something else\n');
        expect(turn.notesForAgent, 'nothing to tell before the reviewed text is written').to.deep.equal([]);
        expect(turn.contentToWrite(write)).to.equal('proposed, then edited\n');
        expect(turn.contentToWrite(write), 'only the write that follows the review').to.equal('proposed\n');
        expect(turn.notesForAgent, 'the agent is told once that the reviewed text was written').to.have.length(1);
        expect(turn.notesForAgent[0]).to.contain(FILE).and.to.contain('reviewed');
    });

    it('reviews a snippet diff (Claude Code\'s Edit) as the whole file, the snippet put in its one place', async () => {
        bed.files.set(`file://${FILE}`, 'one\ntwo\nthree\n');
        const { params, toolCall } = editPermission();
        const outcome = turn.askPermission(params, { ...toolCall, content: [{ type: 'diff', path: FILE, oldText: 'two\n', newText: 'TWO\n' }] });
        await until(() => bed.service.pending.length === 1);
        expect(bed.service.pending[0]).to.deep.include({ newContent: 'one\nTWO\nthree\n', fileExists: true });
        await bed.service.accept(bed.service.pending[0].id);
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'allow' });
        expect(turn.unreviewedWrite({ sessionId: 'session-1', path: FILE, content: 'one\nTWO\nthree\n' }), 'the whole file is what was allowed').to.equal(undefined);
    });

    it('reviews a diff of a file that is not there as a new file, even with an empty oldText (Qwen Code)', async () => {
        const { params, toolCall } = editPermission();
        void turn.askPermission(params, { ...toolCall, content: [{ type: 'diff', path: '/workspace/new.ts', oldText: '', newText: 'created\n' }] });
        await until(() => bed.service.pending.length === 1);
        expect(bed.service.pending[0]).to.deep.include({ newContent: 'created\n', fileExists: false });
    });

    it('reviews a Write without oldText of a file that exists against the file; a snippet found twice is reviewed as sent', async () => {
        bed.files.set(`file://${FILE}`, 'x\nx\n');
        const { params, toolCall } = editPermission();
        void turn.askPermission(params, { ...toolCall, content: [{ type: 'diff', path: FILE, oldText: 'x\n', newText: 'y\n' }] });
        await until(() => bed.service.pending.length === 1);
        expect(bed.service.pending[0]).to.deep.include({ newContent: 'y\n', fileExists: true });
        await bed.service.reject(bed.service.pending[0].id);

        const other = new AcpChatTurn(request, 'Test Agent', bed.service, () => undefined, { read: async () => 'kept\n', replaceWritten: async () => false });
        void other.askPermission(params, { ...toolCall, content: [{ type: 'diff', path: FILE, oldText: null, newText: 'whole\n' }] });
        await until(() => bed.service.pending.length === 1);
        expect(bed.service.pending[0]).to.deep.include({ newContent: 'whole\n', fileExists: true });
    });

    it('for an agent that writes the file itself, puts the reviewed text in place once the tool call completes, if the file holds the proposal', async () => {
        const { outcome, review } = await ask();
        bed.models.edited.set(review.proposalUri, 'proposed, then edited\n');
        await bed.service.accept(bed.service.pending[0].id);
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'allow' });
        // The agent writes its own text, no fs/write_text_file, and reports the tool call done.
        bed.files.set(`file://${FILE}`, 'proposed\n');
        const { toolCall } = editPermission();
        turn.onUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status: 'completed' }, { ...toolCall, status: 'completed' });
        await until(() => turn.notesForAgent.length === 1);
        expect(replaced).to.deep.equal([FILE]);
        expect(bed.files.contents.get(`file://${FILE}`)?.text).to.equal('proposed, then edited\n');
        expect(JSON.stringify(request.response.response.content.map(content => content.asString?.()))).to.contain('as you reviewed it');
    });

    it('says so, and writes nothing, when the file does not hold the proposal after the agent\'s own write', async () => {
        const { outcome, review } = await ask();
        bed.models.edited.set(review.proposalUri, 'proposed, then edited\n');
        await bed.service.accept(bed.service.pending[0].id);
        await outcome;
        bed.files.set(`file://${FILE}`, 'something else\n');
        const { toolCall } = editPermission();
        turn.onUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status: 'completed' }, { ...toolCall, status: 'completed' });
        await until(() => JSON.stringify(request.response.response.content.map(content => content.asString?.())).includes('was not put in its place'));
        expect(bed.files.contents.get(`file://${FILE}`)?.text).to.equal('something else\n');
        expect(replaced).to.deep.equal([]);
    });

    it('lists a write the user did not see (an auto-edit mode, "Allow for this session", other text than shown) for Undo; an allowed one is reviewed', async () => {
        const write = { sessionId: 'session-1', path: FILE, content: 'proposed\n' };
        const unasked = turn.unreviewedWrite(write);
        expect(unasked, 'no permission was asked').to.deep.include({ fileUri: `file://${FILE}`, newContent: 'proposed\n', proposedBy: 'Test Agent' });
        expect(unasked?.origin).to.deep.equal({ kind: 'acp', groupId: request.session.id, label: 'Test Agent' });

        const { outcome } = await ask();
        question().selectedOption = undefined;
        await bed.service.accept(bed.service.pending[0].id);
        await outcome;
        expect(turn.unreviewedWrite({ ...write, content: 'something else\n' }), 'other text than the user allowed').to.not.equal(undefined);
        expect(turn.unreviewedWrite(write), 'the allowed write').to.equal(undefined);
        expect(turn.unreviewedWrite(write), 'a second write of it, unasked').to.not.equal(undefined);
    });

    it('answers a tool call that changes two files once both are decided: one rejected keeps its text, the other is written', async () => {
        bed.files.set('file:///workspace/b.ts', 'b old\n');
        const { params, toolCall: oneFile } = editPermission();
        const toolCall: ToolCallState = { ...oneFile, content: [...oneFile.content!, { type: 'diff', path: '/workspace/b.ts', oldText: 'b old\n', newText: 'b proposed\n' }] };
        const outcome = turn.askPermission(params, toolCall);
        await until(() => bed.service.pending.length === 2);
        let answered = false;
        void outcome.then(() => answered = true);
        await bed.service.accept(bed.service.pending.find(proposal => proposal.fileUri.endsWith('a.ts'))!.id);
        await new Promise(resolve => setImmediate(resolve));
        expect(answered, 'one file decided, one to go').to.equal(false);
        await bed.service.reject(bed.service.pending.find(proposal => proposal.fileUri.endsWith('b.ts'))!.id);
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'allow' });
        expect(turn.contentToWrite({ sessionId: 'session-1', path: FILE, content: 'proposed\n' })).to.equal('proposed\n');
        expect(turn.contentToWrite({ sessionId: 'session-1', path: '/workspace/b.ts', content: 'b proposed\n' }), 'the rejected file keeps its text').to.equal('b old\n');
    });

    it('rejects a tool call that changes two files when both are rejected', async () => {
        bed.files.set('file:///workspace/b.ts', 'b old\n');
        const { params, toolCall: oneFile } = editPermission();
        const toolCall: ToolCallState = { ...oneFile, content: [...oneFile.content!, { type: 'diff', path: '/workspace/b.ts', oldText: 'b old\n', newText: 'b proposed\n' }] };
        const outcome = turn.askPermission(params, toolCall);
        await until(() => bed.service.pending.length === 2);
        await bed.service.rejectAll();
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'reject' });
    });

    it('rejects once when the review is closed', async () => {
        const { outcome, review } = await ask();
        review.close();
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'reject' });
        expect(question().selectedOption?.value).to.equal('reject');
    });

    it('closes the review when the user answers in the chat instead', async () => {
        const { outcome, review } = await ask();
        question().handler!({ text: 'Always allow', value: 'always' } as never);
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'always' });
        expect(review.isDisposed).to.equal(true);
        expect(bed.service.pending).to.deep.equal([]);
    });

    it('withdraws the review of a question answered in the chat while it opened: no editor stays, its outcome reaches nobody', async () => {
        const opening = new Deferred<void>();
        bed.opening = opening.promise;
        const { params, toolCall } = editPermission();
        const outcome = turn.askPermission(params, toolCall);
        await until(() => bed.service.pending.length === 1);
        question().handler!({ text: 'Reject', value: 'reject' } as never);
        opening.resolve();
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'reject' });
        await until(() => bed.opened.length === 1 && bed.opened[0].isDisposed);
        expect(bed.service.pending).to.deep.equal([]);
        expect(bed.resolved).to.deep.equal([]);
        expect(turn.unreviewedWrite({ sessionId: 'session-1', path: FILE, content: 'proposed\n' }), 'nothing was allowed').to.not.equal(undefined);
    });

    it('opens no review for a question answered in the chat before the files were read', async () => {
        let read: (text: string) => void = () => undefined;
        const slow = new AcpChatTurn(request, 'Test Agent', bed.service, () => undefined, {
            read: () => new Promise(resolve => read = resolve), replaceWritten: async () => false
        });
        const { params, toolCall } = editPermission();
        const outcome = slow.askPermission(params, toolCall);
        question().handler!({ text: 'Allow', value: 'allow' } as never);
        read('old\n');
        expect(await outcome).to.deep.equal({ outcome: 'selected', optionId: 'allow' });
        await new Promise(resolve => setImmediate(resolve));
        expect(bed.opened).to.deep.equal([]);
        expect(bed.service.pending).to.deep.equal([]);
        // Nothing was reviewed: the agent's write of the file is listed with Undo like any unreviewed write.
        expect(slow.unreviewedWrite({ sessionId: 'session-1', path: FILE, content: 'proposed\n' })).to.not.equal(undefined);
    });

    it('answers cancelled and closes the review when the chat request is cancelled', async () => {
        const { outcome, review } = await ask();
        request.response.cancel();
        expect(await outcome).to.deep.equal({ outcome: 'cancelled' });
        expect(review.isDisposed).to.equal(true);
    });

    it('closes the question and its review when the agent withdraws the request; the turn goes on', async () => {
        const { outcome, review } = await ask();
        turn.withdrawPermission('other-call');
        expect(question().isResolved, 'another call\'s withdrawal changes nothing').to.equal(false);
        turn.withdrawPermission('call-1');
        expect(await outcome).to.deep.equal({ outcome: 'cancelled' });
        expect(review.isDisposed).to.equal(true);
        // Theia's question view takes no more choice once it has a list of chosen options, here an empty one.
        expect(question().selectedOptions, 'closed, and no option shown as chosen').to.deep.equal([]);
        expect(request.response.isWaitingForInput).to.equal(false);
        expect(request.response.isCanceled).to.equal(false);
        const said = request.response.response.content.map(part => part.asString?.() ?? '').join('');
        expect(said).to.contain('Test Agent withdrew its request to run Write a.ts.');
    });

    it('closes the reviews still open when the turn ends', async () => {
        const { review } = await ask();
        turn.dispose();
        expect(review.isDisposed).to.equal(true);
        expect(bed.service.pending).to.deep.equal([]);
    });
});
