import * as acp from '@agentclientprotocol/sdk';

type Client = acp.AgentRequestContext<acp.PromptRequest>['client'];

const claudeChild = (parent: string) => ({ claudeCode: { parentToolUseId: parent } });
const qwenChild = (parent: string) => ({ parentToolCallId: parent, subagentType: 'general-purpose' });

/**
 * Two subagents at work in one turn, as the stable-protocol adapters report them on the parent's session: one
 * Claude Code style (`_meta.claudeCode.parentToolUseId` on its messages and tool calls; it asks permission for a
 * command), one Qwen Code style (`_meta.parentToolCallId`); then the main agent's own words. Answers what the
 * permission request got.
 */
export async function runSubagents(client: Client, sessionId: string): Promise<acp.StopReason> {
    const update = (value: acp.SessionUpdate) => client.notify(acp.methods.client.session.update, { sessionId, update: value });
    await update({
        sessionUpdate: 'tool_call', toolCallId: 'task-1', title: 'Task: Survey the notes', kind: 'think', status: 'in_progress', rawInput: { prompt: 'Survey the notes' }
    });
    await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Looking at the notes.' }, _meta: claudeChild('task-1') });
    await update({ sessionUpdate: 'tool_call', toolCallId: 'child-read', title: 'Read notes.md', kind: 'read', status: 'in_progress', _meta: claudeChild('task-1') });
    await update({
        sessionUpdate: 'tool_call_update', toolCallId: 'child-read', status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'two notes' } }], _meta: claudeChild('task-1')
    });
    const answer = await client.request(acp.methods.client.session.requestPermission, {
        sessionId, toolCall: { toolCallId: 'child-run', title: 'echo counted', kind: 'execute', status: 'pending', _meta: claudeChild('task-1') },
        options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }]
    });
    if (answer.outcome.outcome === 'cancelled') {
        return 'cancelled';
    }
    const ran = `permission: ${answer.outcome.optionId}`;
    await update({ sessionUpdate: 'tool_call_update', toolCallId: 'child-run', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: ran } }] });
    await update({ sessionUpdate: 'tool_call', toolCallId: 'task-2', title: 'Task: Count the words', kind: 'other', status: 'in_progress' });
    await update({ sessionUpdate: 'tool_call', toolCallId: 'child-count', title: 'wc -w notes.md', kind: 'execute', status: 'completed', _meta: qwenChild('task-2') });
    await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Counted 12 words.' }, _meta: qwenChild('task-2') });
    await update({ sessionUpdate: 'tool_call_update', toolCallId: 'task-2', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '12 words' } }] });
    await update({
        sessionUpdate: 'tool_call_update', toolCallId: 'task-1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'The notes are fine.' } }]
    });
    await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Both subagents are done (permission: ${answer.outcome.optionId}).` } });
    return 'end_turn';
}
