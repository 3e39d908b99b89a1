import type * as acp from '@agentclientprotocol/sdk';
import { ErrorChatResponseContentImpl, MutableChatRequestModel, QuestionResponseContentImpl } from '@theia/ai-chat';
import type { KeyStoreService } from '@theia/core/lib/common/key-store';
import type { QuickInputService } from '@theia/core/lib/common/quick-pick-service';
import { nls } from '@theia/core/lib/common/nls';
import { AcpAgentDefinition, agentIdentity } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatBackend, AcpStartFailure } from '../common/acp-chat-protocol';
import { AgentMarkdownContent } from './agent-markdown/agent-markdown-content';
import { markdownText } from './agent-markdown/markdown-text';

/** Where agents' API keys are kept: Theia's secret storage (the OS keyring, or memory where there is none). */
export const ACP_KEY_STORE_SERVICE = 'theia-cli-companion.acp';

export interface AcpAgentSignInServices {
    readonly backend: AcpChatBackend;
    readonly keyStore: KeyStoreService;
    readonly quickInput: QuickInputService;
}

/**
 * Signing an ACP agent in when it wants credentials: a key kept from an earlier sign-in is tried first;
 * otherwise the chat offers the agent's methods, and a key-based one asks for the key (never shown,
 * logged or put in settings) and keeps it in Theia's secret storage once the agent accepted it.
 */
export class AcpAgentSignIn {

    constructor(protected readonly definition: AcpAgentDefinition, protected readonly services: AcpAgentSignInServices) { }

    protected get name(): string {
        return this.definition.name;
    }

    /** Whether the agent took credentials: the session may be started again. */
    async authenticate(request: MutableChatRequestModel, failure: Extract<AcpStartFailure, { kind: 'auth-required' }>): Promise<boolean> {
        const chatId = request.session.id;
        const { keyStore, backend } = this.services;
        for (const method of failure.methods.filter(isKeyMethod)) {
            const key = await keyStore.getPassword(ACP_KEY_STORE_SERVICE, this.keyAccount(method.id));
            if (key) {
                try {
                    await backend.authenticate(chatId, method.id, { 'api-key': key });
                    return true;
                } catch {
                    // The agent no longer takes it: forget it and ask.
                    await keyStore.deletePassword(ACP_KEY_STORE_SERVICE, this.keyAccount(method.id));
                }
            }
        }
        const method = await this.askForMethod(request, failure);
        if (!method) {
            return false;
        }
        if (!isKeyMethod(method)) {
            request.response.response.addContent(new AgentMarkdownContent(nls.localize('theia-cli-companion/acp-chat/signInOutside',
                '*{0} signs in with "{1}" outside the IDE: run `{2}` in a terminal once, sign in there, then send your message again.*',
                this.name, method.name, this.definition.command), []));
            return false;
        }
        const key = await this.services.quickInput.input({
            title: nls.localize('theia-cli-companion/acp-chat/keyTitle', '{0}: {1}', this.name, method.name),
            prompt: nls.localize('theia-cli-companion/acp-chat/keyPrompt', "The key is kept in the IDE's secret storage."),
            password: true, ignoreFocusLost: true
        });
        if (!key) {
            return false;
        }
        try {
            await backend.authenticate(chatId, method.id, { 'api-key': key });
        } catch (error) {
            request.response.response.addContent(new ErrorChatResponseContentImpl(new Error(nls.localize('theia-cli-companion/acp-chat/keyRefused',
                '{0} did not accept the key: {1}', this.name, String((error as Error)?.message ?? error)))));
            return false;
        }
        await keyStore.setPassword(ACP_KEY_STORE_SERVICE, this.keyAccount(method.id), key);
        return true;
    }

    /** Keys are kept for what the agent runs, not for its name (see `agentIdentity`). */
    protected keyAccount(methodId: string): string {
        return `${agentIdentity(this.definition)}/${methodId}`;
    }

    protected askForMethod(request: MutableChatRequestModel, failure: Extract<AcpStartFailure, { kind: 'auth-required' }>): Promise<acp.AuthMethod | undefined> {
        return new Promise(resolve => {
            const response = request.response;
            const options = failure.methods.map(method => ({ text: method.name, value: method.id, description: method.description ?? undefined }));
            const question = new QuestionResponseContentImpl(
                markdownText(nls.localize('theia-cli-companion/acp-chat/chooseSignIn', '{0} needs credentials ({1}). How do you want to sign in?',
                    this.name, failure.message)),
                options, request, selected => {
                    question.selectedOption = selected;
                    response.stopWaitingForInput();
                    resolve(failure.methods.find(method => method.id === selected.value));
                }, { header: nls.localize('theia-cli-companion/acp-chat/signIn', 'Sign in') });
            response.response.addContent(question);
            response.waitForInput();
            response.cancellationToken.onCancellationRequested(() => resolve(undefined));
        });
    }
}

/** A method authenticated with a key in `_meta['api-key']` (Gemini CLI's gemini-api-key declares it). */
function isKeyMethod(method: acp.AuthMethod): boolean {
    return !!(method as { _meta?: Record<string, unknown> | null })._meta?.['api-key'];
}
