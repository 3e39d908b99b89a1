import { enableBrowserDom } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
const disableDom = enableBrowserDom();

import { expect } from 'chai';
import type { ChatResponseContent, MutableChatRequestModel } from '@theia/ai-chat';
import { AcpAgentDefinition } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatBackend, AcpSessionInfo, AcpStartResult, StartAcpSessionRequest } from '../common/acp-chat-protocol';
import { ACP_SESSION_IDS_SETTING, ACP_SESSION_SETTING, AcpChatAgent, AcpChatAgentServices } from './acp-chat-agent';
import type { AcpChatClientImpl, AcpTurnSink } from './acp-chat-client-impl';
import { AcpTurnSinks } from './acp-turn-sinks';

disableDom();

/** Exposes the session start each message goes through. */
class SwitchingAgent extends AcpChatAgent {
    ensure(request: MutableChatRequestModel): Promise<AcpSessionInfo | undefined> {
        return this.ensureSession(request);
    }
}

/** One chat, several agents of the window: which agent's session each message starts, resumes or reuses. */
describe('ACP chat: a chat that changes agent', () => {
    let starts: StartAcpSessionRequest[];
    let answers: Map<string, Partial<AcpSessionInfo>>;
    let notes: string[];
    let settings: Record<string, unknown>;
    let earlierAgents: (string | undefined)[];
    let agents: Record<'Alpha' | 'Beta', SwitchingAgent>;

    beforeEach(() => {
        starts = [];
        notes = [];
        settings = {};
        earlierAgents = [];
        answers = new Map();
        const client = { chatAgents: new Map<string, string>() } as unknown as AcpChatClientImpl;
        const backend = {
            startSession: async (request: StartAcpSessionRequest): Promise<AcpStartResult> => {
                starts.push(request);
                const session = { chatSessionId: request.chatSessionId, sessionId: `${request.agent.name}-session`, loaded: false, ...answers.get(request.agent.name) };
                return { ok: true, session };
            },
            closeSession: async () => undefined
        } as unknown as AcpChatBackend;
        const services = {
            backend, client, workspace: async () => ({ cwd: '/w', roots: ['/w'], snapshotInclude: [] }), mayStart: async () => true, mcpServers: () => [],
            sessionStarted: async () => []
        } as unknown as AcpChatAgentServices;
        const definition = (name: string): AcpAgentDefinition => ({ name, command: `/opt/${name}/agent`, args: [], env: {} });
        agents = { Alpha: new SwitchingAgent(definition('Alpha'), services), Beta: new SwitchingAgent(definition('Beta'), services) };
    });

    /** A message of chat-1 to `name`; the chat's earlier messages were to `earlierAgents`. */
    const send = (name: 'Alpha' | 'Beta') => {
        const earlier = [...earlierAgents];
        const request = {
            session: {
                id: 'chat-1', get settings(): Record<string, unknown> { return settings; }, setSettings: (next: Record<string, unknown>) => settings = next,
                getRequests: () => [...earlier.map(agentId => ({ agentId })), request]
            },
            response: { response: { addContent: (content: ChatResponseContent) => notes.push(content.asString?.() ?? '') } }
        } as unknown as MutableChatRequestModel;
        earlierAgents.push(name);
        return agents[name].ensure(request);
    };

    it('starts the named agent\'s session, says so, and resumes the first one\'s when the chat changes back', async () => {
        await send('Alpha');
        await send('Alpha');
        expect(starts.map(start => start.agent.name), 'the second message to Alpha reuses its session').to.deep.equal(['Alpha']);
        answers.set('Beta', { previousAgent: 'Alpha' });
        await send('Beta');
        expect(starts.map(start => start.agent.name)).to.deep.equal(['Alpha', 'Beta']);
        expect(notes).to.deep.equal(['*This chat now talks to Beta, in a session of its own; Alpha keeps its session: mention @Alpha to go back to it.*\n\n']);
        // Alpha's window side still knows its session: it must change the backend's chat back before it sends.
        answers.set('Alpha', { previousAgent: 'Beta', resumed: true });
        await send('Alpha');
        expect(starts.map(start => start.agent.name)).to.deep.equal(['Alpha', 'Beta', 'Alpha']);
        expect(notes[1]).to.equal('*This chat talks to Alpha again: its earlier session in this chat goes on.*\n\n');
        await send('Alpha');
        expect(starts).to.have.length(3);
        // Each agent's session id is kept for it, and a reopened chat loads each agent's own.
        expect(settings[ACP_SESSION_IDS_SETTING]).to.deep.equal({ Alpha: 'Alpha-session', Beta: 'Beta-session' });
    });

    it('reopens each agent\'s own stored session, and a chat kept by an earlier version only for its one agent', async () => {
        settings = { [ACP_SESSION_IDS_SETTING]: { Alpha: 'stored-alpha' } };
        await send('Alpha');
        await send('Beta');
        expect(starts.map(start => [start.agent.name, start.loadSessionId])).to.deep.equal([['Alpha', 'stored-alpha'], ['Beta', undefined]]);

        // Stored before sessions were kept per agent: the one id is Alpha's, the chat's only agent until now.
        starts = [];
        settings = { [ACP_SESSION_SETTING]: 'legacy-alpha' };
        earlierAgents = ['Alpha', 'Alpha'];
        await agents.Alpha.forget('chat-1');
        await agents.Beta.forget('chat-1');
        await send('Beta');
        settings = { [ACP_SESSION_SETTING]: 'legacy-alpha' };
        earlierAgents = ['Alpha'];
        await send('Alpha');
        expect(starts.map(start => [start.agent.name, start.loadSessionId])).to.deep.equal([['Beta', undefined], ['Alpha', 'legacy-alpha']]);
    });

    it('shows in a turn only what the agent the chat talks to sends: not the last chunks of the agent it changed from', () => {
        const sinks = new AcpTurnSinks();
        const betaTurn = {} as AcpTurnSink;
        // Beta's turn is attached as the message to Beta goes out, while the chat still talks to Alpha (cancelled, it may still send).
        sinks.attach('chat-1', betaTurn, 'Beta');
        expect(sinks.of('chat-1', 'Alpha'), 'what Alpha still sends').to.equal(undefined);
        expect(sinks.of('chat-1', 'Beta')).to.equal(betaTurn);
        // Alpha's turn ending late does not take Beta's away.
        sinks.detach('chat-1', {} as AcpTurnSink);
        expect(sinks.of('chat-1', 'Beta')).to.equal(betaTurn);
        sinks.detach('chat-1', betaTurn);
        expect(sinks.of('chat-1', 'Beta')).to.equal(undefined);
    });
});
