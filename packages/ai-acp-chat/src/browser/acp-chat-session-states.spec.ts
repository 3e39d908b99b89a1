import { expect } from 'chai';
import type * as acp from '@agentclientprotocol/sdk';
import { AcpChatSessionStates } from './acp-chat-session-states';

describe('AcpChatSessionStates', () => {
    const effort = (value: string): acp.SessionConfigOption => ({
        id: 'effort', name: 'Effort', category: 'thought_level', type: 'select', currentValue: value, options: [{ value: 'low', name: 'Low' }, { value: 'high', name: 'High' }]
    });

    it('starts from what the backend says of the session, and every list the agent sends replaces the one before, per chat', () => {
        const states = new AcpChatSessionStates();
        const changed: string[] = [];
        states.onDidChange(chat => changed.push(chat));
        states.adopt({ chatSessionId: 'a', sessionId: 's1', loaded: false, configOptions: [effort('low')], modes: { currentModeId: 'default', availableModes: [] } }, 'Codex');
        states.apply('a', { sessionUpdate: 'config_option_update', configOptions: [effort('high')] });
        states.apply('a', { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review', input: { hint: 'branch name' } }] });
        states.apply('a', { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'plan', description: 'Plan' }] });
        states.apply('a', { sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
        states.apply('b', { sessionUpdate: 'session_info_update', title: 'Other chat' });
        expect(states.of('a')).to.deep.equal({ agentName: 'Codex', configOptions: [effort('high')], currentModeId: 'plan', commands: [{ name: 'plan', description: 'Plan' }] });
        expect(states.of('b')).to.deep.equal({ configOptions: [], commands: [], title: 'Other chat' });
        expect(changed).to.deep.equal(['a', 'a', 'a', 'a', 'a', 'b']);
    });

    it('keeps the usage with its cost when the agent sends one, ignores what says nothing of the session, and forgets a chat', () => {
        const states = new AcpChatSessionStates();
        states.apply('a', { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.02, currency: 'USD' } });
        states.apply('a', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hello' } });
        states.apply('a', { sessionUpdate: 'session_info_update' });
        expect(states.of('a').usage).to.deep.equal({ used: 1200, size: 200000, cost: { amount: 0.02, currency: 'USD' } });
        expect(states.of('a').title).to.equal(undefined);
        states.forget('a');
        expect(states.of('a')).to.deep.equal({ configOptions: [], commands: [] });
    });

    it('keeps what an agent announced while its session started, not what another agent of the chat did; a change\'s answer replaces the list', () => {
        const states = new AcpChatSessionStates();
        // codex-acp announces its commands before session/new answers
        states.apply('a', { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review' }] });
        states.adopt({ chatSessionId: 'a', sessionId: 's1', loaded: false, configOptions: [effort('low')] }, 'Codex');
        expect(states.of('a').commands.map(command => command.name)).to.deep.equal(['review']);
        states.replaceOptions('a', [effort('high')]);
        expect(states.of('a').configOptions).to.deep.equal([effort('high')]);
        states.apply('a', { sessionUpdate: 'usage_update', used: 10, size: 100 });
        states.adopt({ chatSessionId: 'a', sessionId: 's2', loaded: false }, 'Claude');
        expect(states.of('a')).to.deep.equal({ agentName: 'Claude', configOptions: [], commands: [] });
    });
});
