import type { AcpSessionInfo } from '../common/acp-chat-protocol';
import type { ChatBinding } from './acp-chat-binding';

/** A chat's agent session as the window needs to know it, as it is now (a resumed one may have changed its settings since it started). */
export function describeSession(chatSessionId: string, chat: ChatBinding, loaded: boolean): AcpSessionInfo {
    const session = chat.session!;
    return {
        chatSessionId, sessionId: session.sessionId, loaded,
        agentInfo: chat.agent.initializeResponse?.agentInfo,
        promptCapabilities: chat.agent.initializeResponse?.agentCapabilities?.promptCapabilities,
        mcpServers: chat.sharedMcpServers,
        modes: session.setup.modes && { ...session.setup.modes, currentModeId: session.currentModeId ?? session.setup.modes.currentModeId },
        models: session.setup.models && { ...session.setup.models, currentModelId: session.currentModelId ?? session.setup.models.currentModelId },
        ...(session.configOptions.length ? { configOptions: session.configOptions } : {})
    };
}
