import { enableBrowserDom } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
const disableDom = enableBrowserDom();

import { expect } from 'chai';
import { AcpAgentDefinition } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatBackend, AcpSessionInfo } from '../common/acp-chat-protocol';
import { AcpChatAgent, AcpChatAgentServices } from './acp-chat-agent';

disableDom();

const MODES = ['default', 'autoEdit', 'yolo'].map(id => ({ id, name: id }));

/** The chat input's mode selector, as each request carries it, against the modes the session is in. */
class ModedAgent extends AcpChatAgent {
    session: AcpSessionInfo = { sessionId: 's-1', modes: { currentModeId: 'default', availableModes: MODES } } as AcpSessionInfo;
    constructor(readonly switched: string[]) {
        super({ name: 'Gemini', command: 'gemini', args: ['--acp'], env: {} } as AcpAgentDefinition, {
            backend: { setMode: async (_chat: string, modeId: string) => { switched.push(modeId); } } as unknown as AcpChatBackend
        } as unknown as AcpChatAgentServices);
        this.sessions.set('chat-1', this.session);
    }
    /** A request whose selector shows one of this agent's modes (as the selector names them). */
    async request(mode: string | undefined): Promise<void> {
        await this.requestWith(mode === undefined ? undefined : `${this.id}/${mode}`);
    }
    async requestWith(selectorModeId: string | undefined): Promise<void> {
        await this.applyMode('chat-1', this.sessions.get('chat-1')!, selectorModeId);
    }
}

describe('ACP chat: the mode selector and Set Agent Mode…', () => {
    it('applies the selector when the user chose a mode there', async () => {
        const switched: string[] = [];
        const agent = new ModedAgent(switched);
        await agent.request('default');
        await agent.request('autoEdit');
        expect(switched).to.deep.equal(['autoEdit']);
        expect(agent.sessionOf('chat-1')?.modes?.currentModeId).to.equal('autoEdit');
    });

    it('keeps the mode Set Agent Mode… chose while the selector still shows the old one', async () => {
        const switched: string[] = [];
        const agent = new ModedAgent(switched);
        await agent.request('default');
        await agent.setMode('chat-1', 'autoEdit');
        await agent.request('default');
        await agent.request('default');
        expect(switched).to.deep.equal(['autoEdit']);
        expect(agent.sessionOf('chat-1')?.modes?.currentModeId).to.equal('autoEdit');
        // Choosing in the selector afterwards still counts.
        await agent.request('yolo');
        expect(switched).to.deep.equal(['autoEdit', 'yolo']);
    });

    it('never takes another agent\'s choice: the selector can still show it when a message names this agent', async () => {
        const switched: string[] = [];
        const agent = new ModedAgent(switched);
        // Claude Code's "auto" (accept edits by its own judgement) left in the selector, a message to Gemini sent.
        await agent.requestWith('Claude/yolo');
        await agent.requestWith('yolo');
        expect(switched).to.deep.equal([]);
        expect(agent.sessionOf('chat-1')?.modes?.currentModeId).to.equal('default');
    });

    it('ignores a mode the session does not offer, and a request without a selector', async () => {
        const switched: string[] = [];
        const agent = new ModedAgent(switched);
        await agent.request(undefined);
        await agent.request('constructor');
        expect(switched).to.deep.equal([]);
    });
});
