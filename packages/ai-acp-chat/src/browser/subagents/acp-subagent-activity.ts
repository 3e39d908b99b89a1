import { ChatResponseContent, ToolCallChatResponseContent } from '@theia/ai-chat';
import type { SerializableChatResponseContentData } from '@theia/ai-chat/lib/common/chat-model-serialization';
import { Emitter, Event } from '@theia/core/lib/common/event';

/**
 * What a subagent did, shown under the tool call that started it: its messages, thoughts and tool calls as
 * chat response parts, merged the way Theia merges a response's parts (a tool call's updates into the call,
 * a message's chunks into the message).
 */
export class AcpSubagentActivity {
    protected readonly parts: ChatResponseContent[] = [];
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    constructor(parts: readonly ChatResponseContent[] = []) {
        this.parts.push(...parts);
    }

    get children(): readonly ChatResponseContent[] {
        return this.parts;
    }

    add(content: ChatResponseContent): void {
        if (!this.mergeIntoPart(content)) {
            this.parts.push(content);
        }
        this.onDidChangeEmitter.fire();
    }

    protected mergeIntoPart(content: ChatResponseContent): boolean {
        if (ToolCallChatResponseContent.is(content) && content.id !== undefined) {
            const sameCall = this.parts.find(part => ToolCallChatResponseContent.is(part) && part.id === content.id);
            return !!sameCall?.merge?.(content);
        }
        return !!this.parts.at(-1)?.merge?.(content);
    }

    /** The parts as a stored chat keeps them: those that cannot be kept are left out. */
    toSerializable(): SerializableChatResponseContentData[] {
        return this.parts.flatMap(part => part.toSerializable ? [part.toSerializable()] : []);
    }
}
