import { inject, injectable } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { Disposable } from '@theia/core/lib/common/disposable';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { ChatModel, ChatRequest, ChatRequestModel, ChatService } from '@theia/ai-chat';

/** A message the user sent while the chat's turn ran, waiting for it to end. */
export interface QueuedMessage {
    readonly id: number;
    readonly request: ChatRequest;
    /**
     * The pasted or dropped images its text names (`#imageContext:<short id>`), kept registered while it waits: Theia
     * resolves them only when a message is sent. Disposed once it is sent or discarded.
     */
    readonly images: ReadonlyMap<string, Disposable>;
}

/**
 * Messages sent while an ACP agent's turn runs wait here instead of cancelling it (Theia's chat cancels a running
 * request when the next one is sent). When the turn ends the first goes out, then the next when that one ends. A
 * turn the user stopped pauses the queue: each message then waits for its "Send now", an edit or a removal.
 */
@injectable()
export class AcpMessageQueue {
    @inject(ChatService) protected readonly chats: ChatService;
    @inject(MessageService) protected readonly messages: MessageService;

    protected readonly queues = new Map<string, QueuedMessage[]>();
    protected readonly watching = new Map<string, Disposable>();
    /** Chats whose queue waits for the user (a turn was stopped). */
    protected readonly paused = new Set<string>();
    /** Chats with a queued message on its way (Theia adds the request only after resolving its variables). */
    protected readonly flushing = new Set<string>();
    protected nextId = 1;
    protected readonly onDidChangeEmitter = new Emitter<string>();
    /** Fires with the chat id whose queue changed. */
    readonly onDidChange: Event<string> = this.onDidChangeEmitter.event;

    of(chatId: string): readonly QueuedMessage[] {
        return this.queues.get(chatId) ?? [];
    }

    /** The chat's running request, when there is one. */
    running(chat: ChatModel): ChatRequestModel | undefined {
        const last = chat.getRequests().at(-1);
        return last && ChatRequestModel.isInProgress(last) ? last : undefined;
    }

    /** A message is on its way or a turn runs: what the user sends now must wait. */
    isBusy(chat: ChatModel): boolean {
        return this.flushing.has(chat.id) || !!this.running(chat);
    }

    /** The queue waits for the user: its messages go one by one with "Send now". */
    isPaused(chatId: string): boolean {
        return this.paused.has(chatId) && this.of(chatId).length > 0;
    }

    add(chat: ChatModel, request: ChatRequest, images: ReadonlyMap<string, Disposable> = new Map()): void {
        this.queues.set(chat.id, [...this.of(chat.id), { id: this.nextId++, request, images }]);
        this.onDidChangeEmitter.fire(chat.id);
        this.watch(chat);
    }

    /** Whether a queued message of the chat still needs images registered for it. */
    holdsImages(chatId: string): boolean {
        return this.of(chatId).some(message => message.images.size > 0);
    }

    /** The message is not wanted any more: out of the queue, its images let go. */
    discard(chatId: string, id: number): void {
        this.remove(chatId, id)?.images.forEach(image => image.dispose());
    }

    /** Takes the message out of the queue (to edit it: its images are the caller's now). */
    remove(chatId: string, id: number): QueuedMessage | undefined {
        const queue = this.of(chatId);
        const message = queue.find(candidate => candidate.id === id);
        if (message) {
            this.set(chatId, queue.filter(candidate => candidate !== message));
        }
        return message;
    }

    /** Sends the message now, when no turn runs and nothing is on its way (after a stopped turn). */
    async sendNow(chat: ChatModel, id: number): Promise<void> {
        if (this.isBusy(chat)) {
            return;
        }
        const message = this.remove(chat.id, id);
        if (message) {
            await this.send(chat, message);
        }
    }

    /** The chat is gone: so is its queue. */
    forget(chatId: string): void {
        this.of(chatId).forEach(message => message.images.forEach(image => image.dispose()));
        this.watching.get(chatId)?.dispose();
        this.watching.delete(chatId);
        this.paused.delete(chatId);
        if (this.queues.delete(chatId)) {
            this.onDidChangeEmitter.fire(chatId);
        }
    }

    /** Waits for the chat's running turn to end, then sends the first queued message (unless the user stopped the turn). */
    protected watch(chat: ChatModel): void {
        const running = this.running(chat);
        if (!running || this.watching.has(chat.id)) {
            return;
        }
        const subscription = running.response.onDidChange(() => {
            if (ChatRequestModel.isInProgress(running)) {
                return;
            }
            subscription.dispose();
            this.watching.delete(chat.id);
            const [next] = this.of(chat.id);
            if (running.response.isCanceled && next) {
                this.paused.add(chat.id);
                this.onDidChangeEmitter.fire(chat.id);
            } else if (next && !this.paused.has(chat.id)) {
                this.remove(chat.id, next.id);
                void this.send(chat, next);
            }
        });
        this.watching.set(chat.id, subscription);
    }

    protected async send(chat: ChatModel, message: QueuedMessage): Promise<void> {
        this.flushing.add(chat.id);
        this.onDidChangeEmitter.fire(chat.id);
        let invocation: Awaited<ReturnType<ChatService['sendRequest']>>;
        try {
            invocation = await this.chats.sendRequest(chat.id, message.request);
        } finally {
            // Its images are resolved into the request by now (or it failed): no longer needed.
            message.images.forEach(image => image.dispose());
            this.flushing.delete(chat.id);
            this.onDidChangeEmitter.fire(chat.id);
        }
        if (!invocation) {
            this.messages.error(nls.localize('theia-cli-companion/acp-chat/queuedNotSent', 'The queued message "{0}" could not be sent.', message.request.text));
            return;
        }
        if (this.of(chat.id).length && !this.paused.has(chat.id)) {
            this.watch(chat);
        }
    }

    protected set(chatId: string, queue: QueuedMessage[]): void {
        if (queue.length) {
            this.queues.set(chatId, queue);
        } else {
            this.queues.delete(chatId);
            this.paused.delete(chatId);
        }
        this.onDidChangeEmitter.fire(chatId);
    }
}
