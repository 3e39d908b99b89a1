import { ToolCallChatResponseContentImpl } from '@theia/ai-chat';
import type { ToolCallChatResponseContent, ToolCallContentData } from '@theia/ai-chat/lib/common/chat-model';
import type { SerializableChatResponseContentData } from '@theia/ai-chat/lib/common/chat-model-serialization';
import { AcpSubagentActivity } from './subagents/acp-subagent-activity';

/** How a stored chat keeps a tool call that started a subagent: the call as Theia keeps it, and the subagent's parts. */
export const ACP_SUBAGENT_TOOL_CALL_KIND = 'acp-subagent-tool-call';

export interface AcpSubagentToolCallData extends ToolCallContentData {
    readonly subagentParts: SerializableChatResponseContentData[];
}

/** A tool call of an ACP agent: its title may arrive after its first update; a subagent it started shows under it. */
export class AcpToolCallContent extends ToolCallChatResponseContentImpl {
    /** What the subagent this call started did, once it did anything. */
    subagent?: AcpSubagentActivity;

    override merge(next: ToolCallChatResponseContent): boolean {
        const merged = super.merge(next);
        if (merged && next.id === this.id && next.name) {
            this._name = next.name;
        }
        return merged;
    }

    /** The subagent's activity under this call, started on its first part. */
    activity(): AcpSubagentActivity {
        return this.subagent ??= new AcpSubagentActivity();
    }

    override toSerializable(): SerializableChatResponseContentData<ToolCallContentData> {
        const own = super.toSerializable();
        if (!this.subagent) {
            return own;
        }
        const data: AcpSubagentToolCallData = { ...own.data, subagentParts: this.subagent.toSerializable() };
        return { kind: ACP_SUBAGENT_TOOL_CALL_KIND, fallbackMessage: `${this.name ?? 'Tool call'} (with a subagent's work)`, data };
    }
}
