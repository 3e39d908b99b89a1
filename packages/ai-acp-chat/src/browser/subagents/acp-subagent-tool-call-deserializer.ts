import { injectable } from '@theia/core/shared/inversify';
import { ChatContentDeserializerContribution, ChatContentDeserializerRegistry, ChatResponseContent } from '@theia/ai-chat';
import type { SerializableChatResponseContentData } from '@theia/ai-chat/lib/common/chat-model-serialization';
import { ACP_SUBAGENT_TOOL_CALL_KIND, AcpSubagentToolCallData, AcpToolCallContent } from '../acp-tool-call-content';
import { AcpSubagentActivity } from './acp-subagent-activity';

/** A reopened chat shows a subagent's work under its tool call again, each part restored by the deserializer of its kind. */
@injectable()
export class AcpSubagentToolCallDeserializer implements ChatContentDeserializerContribution {
    registerDeserializers(registry: ChatContentDeserializerRegistry): void {
        registry.register({
            kind: ACP_SUBAGENT_TOOL_CALL_KIND,
            deserialize: async (data: AcpSubagentToolCallData) => {
                // Restored calls have nothing running them: finished, as Theia restores its own.
                const content = new AcpToolCallContent(data?.id, data?.name, data?.arguments, true, data?.result, data?.data);
                const stored = Array.isArray(data?.subagentParts) ? data.subagentParts.filter(isContentData) : [];
                const children = await Promise.all(stored.map(async child => registry.deserialize(child)));
                content.subagent = new AcpSubagentActivity(children.filter((child): child is ChatResponseContent => !!child));
                return content;
            }
        });
    }
}

function isContentData(value: unknown): value is SerializableChatResponseContentData {
    return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
