import { ChatResponseContent, MutableChatRequestModel } from '@theia/ai-chat';
import type { InteractiveContent } from '@theia/ai-chat/lib/common/chat-model';
import type { SerializableChatResponseContentData } from '@theia/ai-chat/lib/common/chat-model-serialization';
import { Deferred } from '@theia/core/lib/common/promise-util';
import { Emitter, Event } from '@theia/core/lib/common/event';
import type { Disposable } from '@theia/core/lib/common/disposable';
import { nls } from '@theia/core/lib/common/nls';
import { checkAnswer, FormValue } from '@theia-cli-companion/acp-client/lib/common';
import type { AcpQuestion, AcpQuestionAnswer } from '../../common/acp-chat-protocol';
import { markdownText } from '../agent-markdown/markdown-text';

export type QuestionState = 'asking' | 'answered' | 'declined' | 'cancelled' | 'stopped' | 'withdrawn' | 'completed';

/**
 * An agent's question in the chat: its form (or the URL it asks the user to open) until the user answers,
 * declines or dismisses it, or the agent withdraws or completes it. The turn waits for input meanwhile; only
 * this chat's input: other chats go on.
 */
export class AcpQuestionContent implements ChatResponseContent, InteractiveContent {
    readonly kind = 'acp-question';
    protected readonly settled = new Deferred<AcpQuestionAnswer>();
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;
    state: QuestionState = 'asking';
    /** What was wrong with the last answer tried, by field key. */
    errors: Record<string, string> = {};

    protected readonly onStop: Disposable;

    constructor(readonly question: AcpQuestion, protected readonly request: MutableChatRequestModel, readonly agentName: string) {
        request.response.waitForInput();
        // Stop ends the turn: nobody answers its question any more, and the agent is told so at once.
        this.onStop = request.response.cancellationToken.onCancellationRequested(() => this.close('stopped'));
    }

    get interactionId(): string {
        return this.question.id;
    }

    get isResolved(): boolean {
        return this.state !== 'asking';
    }

    get whenResolved(): Promise<void> {
        return this.settled.promise.then(() => undefined);
    }

    /** The user's answer, or `cancel` when the question closed without one. */
    get answer(): Promise<AcpQuestionAnswer> {
        return this.settled.promise;
    }

    /** Sends the form's values when they fit the form; otherwise keeps the question open and says what is wrong. */
    submit(values: Readonly<Record<string, FormValue | undefined>>): boolean {
        if (!this.question.fields) {
            this.settle('answered', { action: 'accept' });
            return true;
        }
        const check = checkAnswer(this.question.fields, values);
        if (!check.ok) {
            this.errors = check.errors;
            this.onDidChangeEmitter.fire();
            return false;
        }
        this.settle('answered', { action: 'accept', content: check.content });
        return true;
    }

    decline(): void {
        this.settle('declined', { action: 'decline' });
    }

    dismiss(): void {
        this.settle('cancelled', { action: 'cancel' });
    }

    /** The agent withdrew the question, said it is done (a URL question), or the user stopped the turn. */
    close(why: 'withdrawn' | 'completed' | 'stopped'): void {
        this.settle(why, { action: 'cancel' });
    }

    /** A URL question the user opened: the agent's elicitation/complete says it is done. */
    complete(): void {
        if (this.state === 'answered' && this.question.url) {
            this.state = 'completed';
            this.onDidChangeEmitter.fire();
            this.request.response.response.responseContentChanged();
        }
    }

    asString(): string {
        return `${this.question.message} (${this.describeState()})`;
    }

    /** A reopened chat shows the question and how it ended, as text. */
    toSerializable(): SerializableChatResponseContentData {
        return { kind: 'markdownContent', data: { content: `\n\n*${markdownText(this.question.message)}* — ${this.describeState()}\n\n` } };
    }

    describeState(): string {
        switch (this.state) {
            case 'asking': return nls.localize('theia-cli-companion/acp-chat/questionAsking', 'waiting for your answer');
            case 'answered': return nls.localize('theia-cli-companion/acp-chat/questionAnswered', 'answered');
            case 'declined': return nls.localize('theia-cli-companion/acp-chat/questionDeclined', 'declined');
            case 'cancelled': return nls.localize('theia-cli-companion/acp-chat/questionCancelled', 'dismissed');
            case 'stopped': return nls.localize('theia-cli-companion/acp-chat/questionStopped', 'not answered: the turn was stopped');
            case 'withdrawn': return nls.localize('theia-cli-companion/acp-chat/questionWithdrawn', 'withdrawn by {0}', this.agentName);
            case 'completed': return nls.localize('theia-cli-companion/acp-chat/questionCompleted', 'done');
        }
    }

    protected settle(state: QuestionState, answer: AcpQuestionAnswer): void {
        if (this.state !== 'asking') {
            return;
        }
        this.state = state;
        this.errors = {};
        this.onStop.dispose();
        this.request.response.stopWaitingForInput();
        this.settled.resolve(answer);
        this.onDidChangeEmitter.fire();
        this.request.response.response.responseContentChanged();
    }
}
