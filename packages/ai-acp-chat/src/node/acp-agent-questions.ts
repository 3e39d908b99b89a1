import type * as acp from '@agentclientprotocol/sdk';
import { randomUUID } from 'crypto';
import { checkAnswer, questionForm } from '@theia-cli-companion/acp-client/lib/common';
import { acpSdk, AcpClientServices } from '@theia-cli-companion/acp-client/lib/node';
import type { AcpChatClient, AcpQuestion, AcpQuestionAnswer } from '../common/acp-chat-protocol';

/** How the questions of one chat's agent reach its window. */
export interface QuestionRoute {
    client(): AcpChatClient | undefined;
    isCurrent(): boolean;
}

/**
 * The agent's questions (ACP elicitation/create) for one chat: checked here (a schema the chat cannot show is the
 * protocol's invalid-params error, and the chat says so), asked in the window, and the answer checked again against
 * the form before the agent gets it. A question the agent withdraws ($/cancel_request) or completes
 * (elicitation/complete, for a URL) leaves the chat.
 */
export class AcpAgentQuestions {
    /** The URL questions asked, by the agent's elicitation id: its completion closes the backend's question. */
    protected readonly urlQuestions = new Map<string, string>();

    constructor(protected readonly chatSessionId: string, protected readonly route: QuestionRoute) { }

    services(): Required<Pick<AcpClientServices, 'askQuestion' | 'onQuestionComplete'>> {
        return {
            askQuestion: (_session, params, signal) => this.ask(params, signal),
            onQuestionComplete: elicitationId => {
                const id = this.urlQuestions.get(elicitationId);
                if (id) {
                    this.urlQuestions.delete(elicitationId);
                    this.route.client()?.questionClosed(this.chatSessionId, id, 'completed');
                }
            }
        };
    }

    protected async ask(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
        const client = this.route.client();
        if (!client || !this.route.isCurrent()) {
            return { action: 'cancel' };
        }
        const question = this.toQuestion(params);
        if ('error' in question) {
            client.onQuestionRefused(this.chatSessionId, question.error);
            throw acpSdk().RequestError.invalidParams(undefined, question.error);
        }
        const withdraw = () => client.questionClosed(this.chatSessionId, question.id, 'withdrawn');
        signal.addEventListener('abort', withdraw, { once: true });
        if (params.mode === 'url') {
            this.urlQuestions.set(String(params.elicitationId), question.id);
        }
        let answer: acp.CreateElicitationResponse | undefined;
        try {
            answer = this.checked(question, await client.askQuestion(this.chatSessionId, question));
            return answer;
        } finally {
            signal.removeEventListener('abort', withdraw);
            if (params.mode === 'url' && answer?.action !== 'accept') {
                // Only an opened page is completed later.
                this.urlQuestions.delete(String(params.elicitationId));
            }
        }
    }

    protected toQuestion(params: acp.CreateElicitationRequest): AcpQuestion | { error: string } {
        const base = { id: randomUUID(), message: String(params.message ?? '').slice(0, 4000), ...toolCallOf(params) };
        if (params.mode === 'form') {
            const form = questionForm(params.requestedSchema);
            return form.ok ? { ...base, fields: form.fields } : { error: `The agent's question has a form the chat cannot show (${form.error})` };
        }
        if (params.mode === 'url') {
            const url = URL.canParse(String(params.url)) ? new URL(String(params.url)) : undefined;
            if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
                return { error: `The agent asked to open a URL that is not a web address (${String(params.url).slice(0, 200)})` };
            }
            return { ...base, url: { href: url.href, host: url.host } };
        }
        return { error: `The agent asked a question of a kind the chat does not know (${String(params.mode).slice(0, 50)})` };
    }

    /** The window's answer, as the agent may get it: a form answer checked against the form again (the window is outside input too). */
    protected checked(question: AcpQuestion, answer: AcpQuestionAnswer): acp.CreateElicitationResponse {
        if (answer?.action === 'accept') {
            if (!question.fields) {
                return { action: 'accept' };
            }
            const check = checkAnswer(question.fields, answer.content ?? {});
            return check.ok ? { action: 'accept', content: check.content } : { action: 'cancel' };
        }
        return { action: answer?.action === 'decline' ? 'decline' : 'cancel' };
    }
}

function toolCallOf(params: acp.CreateElicitationRequest): { toolCallId?: string } {
    const toolCallId = (params as { toolCallId?: unknown }).toolCallId;
    return typeof toolCallId === 'string' ? { toolCallId } : {};
}
