import { enableBrowserDom, DiffReviewTestbed } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import type * as acp from '@agentclientprotocol/sdk';
import {
    ChatAgentLocation, ChatContentDeserializerRegistryImpl, ChatResponseContent, DefaultChatContentDeserializerContribution, MarkdownChatResponseContent,
    MutableChatModel, MutableChatRequestModel, ToolCallChatResponseContent
} from '@theia/ai-chat';
import { ToolCallTracker } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatTurn } from '../acp-chat-turn';
import { ACP_SUBAGENT_TOOL_CALL_KIND, AcpToolCallContent } from '../acp-tool-call-content';
import { AcpSubagentToolCallDeserializer } from './acp-subagent-tool-call-deserializer';

disableDom();

/** The text of rendered agent markdown (a fragment of HTML). */
const textOf = (html: string) => html.replace(/<[^>]*>|&#10;/g, '').trim();
const claude = (parent: string) => ({ claudeCode: { parentToolUseId: parent } });

describe('A subagent\'s work in the chat', () => {
    let request: MutableChatRequestModel;
    let turn: AcpChatTurn;
    let tracker: ToolCallTracker;

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(() => {
        const bed = new DiffReviewTestbed();
        const model = new MutableChatModel(ChatAgentLocation.Panel);
        request = model.addRequest({ request: { text: 'survey' }, parts: [], toolRequests: new Map(), variables: [] }, 'acp-test');
        turn = new AcpChatTurn(request, 'Test Agent', bed.service, () => undefined, { read: async () => undefined, replaceWritten: async () => false });
        tracker = new ToolCallTracker();
    });

    /** An update as the backend hands it on: tool call updates with the session's state of the call. */
    const send = (update: acp.SessionUpdate) => turn.onUpdate(update,
        update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update' ? tracker.apply(update).state : undefined);
    const parts = () => request.response.response.content;
    const call = (id: string) => parts().find((part): part is AcpToolCallContent => part instanceof AcpToolCallContent && part.id === id);
    const described = (content: ChatResponseContent): string => ToolCallChatResponseContent.is(content) ? `call ${content.name}`
        : MarkdownChatResponseContent.is(content) ? `text ${textOf(content.content.value)}` : content.kind;

    it('nests a subagent\'s messages and tool calls under the call that started it; the main agent\'s own words stay in the answer', () => {
        send({ sessionUpdate: 'tool_call', toolCallId: 'task', title: 'Task: survey', kind: 'think', status: 'in_progress' });
        send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Looking' }, _meta: claude('task') });
        send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ' around.' }, _meta: claude('task') });
        send({ sessionUpdate: 'tool_call', toolCallId: 'read', title: 'Read a.md', kind: 'read', status: 'in_progress', _meta: claude('task') });
        // An update need not repeat the stamp: the call stays where it was first shown.
        send({ sessionUpdate: 'tool_call_update', toolCallId: 'read', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'two notes' } }] });
        send({ sessionUpdate: 'tool_call', toolCallId: 'count', title: 'wc', kind: 'execute', status: 'completed', _meta: { parentToolCallId: 'read' } });
        send({ sessionUpdate: 'tool_call_update', toolCallId: 'task', status: 'completed' });
        send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done.' } });

        expect(parts().map(described)).to.deep.equal(['call Task: survey (think, completed)', 'text Done.']);
        const task = call('task')!;
        expect(task.finished).to.equal(true);
        expect(task.subagent!.children.map(described)).to.deep.equal(['text Looking around.', 'call Read a.md (read, completed)']);
        const read = task.subagent!.children[1] as AcpToolCallContent;
        expect(read.result).to.equal('two notes');
        expect(read.subagent!.children.map(described), 'a subagent of a subagent nests one level deeper').to.deep.equal(['call wc (execute, completed)']);
    });

    it('tells the chat when a call starts showing a subagent (so the chat draws it anew), once', () => {
        send({ sessionUpdate: 'tool_call', toolCallId: 'task', title: 'Task', kind: 'other', status: 'in_progress' });
        let changes = 0;
        request.response.response.onDidChange(() => changes++);
        send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Hmm.' }, _meta: { parentToolCallId: 'task' } });
        expect(changes).to.equal(1);
        let activityChanges = 0;
        call('task')!.subagent!.onDidChange(() => activityChanges++);
        send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: ' More.' }, _meta: { parentToolCallId: 'task' } });
        expect([changes, activityChanges]).to.deep.equal([1, 1]);
        expect(call('task')!.subagent!.children.map(part => part.kind)).to.deep.equal(['thinking']);
    });

    it('shows the work of a subagent whose call this turn does not show (started earlier) in the answer itself', () => {
        send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Late report.' }, _meta: claude('earlier-task') });
        send({ sessionUpdate: 'tool_call', toolCallId: 'late', title: 'Read', kind: 'read', status: 'completed', _meta: claude('earlier-task') });
        expect(parts().map(described)).to.deep.equal(['text Late report.', 'call Read (read, completed)']);
    });

    it('puts the tool call of a subagent\'s permission request under its subagent', async () => {
        send({ sessionUpdate: 'tool_call', toolCallId: 'task', title: 'Task', kind: 'other', status: 'in_progress' });
        const toolCall: acp.ToolCallUpdate = { toolCallId: 'run', title: 'echo hi', kind: 'execute', status: 'pending', _meta: claude('task') };
        const asked = turn.askPermission({ sessionId: 's', toolCall, options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }] }, tracker.apply(toolCall).state);
        expect(call('task')!.subagent!.children.map(described)).to.deep.equal(['call echo hi (execute, pending)']);
        expect(parts().map(part => part.kind), 'the question itself is asked in the answer, where the user sees it').to.include('question');
        request.response.cancel();
        expect(await asked).to.deep.equal({ outcome: 'cancelled' });
    });

    it('is kept with the chat and shown under its call again when the chat is reopened', async () => {
        send({ sessionUpdate: 'tool_call', toolCallId: 'task', title: 'Task', kind: 'other', status: 'in_progress' });
        send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Found it.' }, _meta: claude('task') });
        send({ sessionUpdate: 'tool_call', toolCallId: 'read', title: 'Read', kind: 'read', status: 'completed', _meta: claude('task') });
        const stored = call('task')!.toSerializable();
        expect(stored.kind).to.equal(ACP_SUBAGENT_TOOL_CALL_KIND);
        expect(call('task')!.subagent!.children.length).to.equal(2);

        const registry = new ChatContentDeserializerRegistryImpl();
        new DefaultChatContentDeserializerContribution().registerDeserializers(registry);
        new AcpSubagentToolCallDeserializer().registerDeserializers(registry);
        const restored = await registry.deserialize(JSON.parse(JSON.stringify(stored)));
        expect(restored).to.be.instanceOf(AcpToolCallContent);
        const task = restored as AcpToolCallContent;
        expect([task.id, task.name, task.finished]).to.deep.equal(['task', 'Task (other, in_progress)', true]);
        expect(task.subagent!.children.map(described)).to.deep.equal(['text Found it.', 'call Read (read, completed)']);

        const plain = new AcpToolCallContent('plain', 'Read', '{}', true, 'ok');
        expect(plain.toSerializable().kind, 'a call without a subagent is kept as Theia keeps any').to.equal('toolCall');
        const damagedParts = [null, 7, { kind: 'markdownContent', data: { content: 'kept' } }];
        const damaged = await registry.deserialize({ kind: ACP_SUBAGENT_TOOL_CALL_KIND, data: { id: 'x', subagentParts: damagedParts } });
        expect((damaged as AcpToolCallContent).subagent!.children.map(part => part.kind), 'stored parts that are not parts are left out').to.deep.equal(['markdownContent']);
    });
});
