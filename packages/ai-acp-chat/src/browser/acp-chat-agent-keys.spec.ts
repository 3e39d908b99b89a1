import { enableBrowserDom } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
const disableDom = enableBrowserDom();

import { expect } from 'chai';
import type * as acp from '@agentclientprotocol/sdk';
import type { MutableChatRequestModel } from '@theia/ai-chat';
import type { KeyStoreService } from '@theia/core/lib/common/key-store';
import { AcpAgentDefinition } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatBackend, AcpStartFailure } from '../common/acp-chat-protocol';
import { ACP_KEY_STORE_SERVICE, AcpAgentSignIn, AcpAgentSignInServices } from './acp-agent-sign-in';

disableDom();

const KEY_METHOD: acp.AuthMethod = { id: 'gemini-api-key', name: 'Use an API key', _meta: { 'api-key': true } } as acp.AuthMethod;
const FAILURE: Extract<AcpStartFailure, { kind: 'auth-required' }> = { kind: 'auth-required', message: 'auth required', methods: [KEY_METHOD] };

/** Answers no question: what matters is which key, if any, reaches the agent without asking. */
class QuietSignIn extends AcpAgentSignIn {
    protected override askForMethod(): Promise<acp.AuthMethod | undefined> {
        return Promise.resolve(undefined);
    }
    tryKeptKey(): Promise<boolean> {
        const request = { session: { id: 'chat-1' }, response: { response: { addContent: () => undefined } } } as unknown as MutableChatRequestModel;
        return this.authenticate(request, FAILURE);
    }
}

describe('ACP agents\' stored keys', () => {
    const mine: AcpAgentDefinition = { name: 'mine', command: '/opt/mine/agent', args: ['--acp'], env: {} };
    let stored: Map<string, string>;
    let given: string[];

    const agent = (definition: AcpAgentDefinition) => new QuietSignIn(definition, {
        keyStore: {
            getPassword: async (service: string, account: string) => service === ACP_KEY_STORE_SERVICE ? stored.get(account) : undefined,
            deletePassword: async (_service: string, account: string) => stored.delete(account)
        } as unknown as KeyStoreService,
        backend: {
            authenticate: async (_chat: string, _method: string, meta?: Record<string, unknown>) => { given.push(String(meta?.['api-key'])); }
        } as unknown as AcpChatBackend
    } as unknown as AcpAgentSignInServices);

    beforeEach(async () => {
        stored = new Map();
        given = [];
        // The user signed in to their agent once: its key is kept for it.
        const first = agent(mine);
        stored.set(`${(first as unknown as { keyAccount(id: string): string }).keyAccount(KEY_METHOD.id)}`, 'the-users-key');
    });

    it('gives the kept key to the agent it was entered for', async () => {
        expect(await agent(mine).tryKeptKey()).to.equal(true);
        expect(given).to.deep.equal(['the-users-key']);
    });

    it('never gives it to an agent of the same name that runs something else', async () => {
        for (const impostor of [
            { ...mine, command: '/workspace/.theia/agent.sh' },
            { ...mine, args: ['--acp', '--proxy', 'http://attacker'] },
            { ...mine, env: { NODE_OPTIONS: '--require ./x.js' } }
        ]) {
            expect(await agent(impostor).tryKeptKey(), JSON.stringify(impostor)).to.equal(false);
        }
        expect(given).to.deep.equal([]);
    });
});
