import { ContainerModule, interfaces } from '@theia/core/shared/inversify';
import { StatusViewSection } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { AcpChatBackend, acpChatServicePath } from '../common/acp-chat-protocol';
import { bindAcpChatPreferences } from '../common/acp-chat-preferences';
import { AcpChatAgentsContribution } from './acp-chat-agents-contribution';
import { AcpChatCommandContribution } from './acp-chat-command-contribution';
import { CommandContribution } from '@theia/core/lib/common/command';
import { AcpChatClientImpl } from './acp-chat-client-impl';
import { AcpChatSessionStates } from './acp-chat-session-states';
import { AcpToolCallEvents } from './acp-tool-call-events';
import { AcpFileAccess } from './acp-file-access';
import { AcpTerminalPresenter } from './acp-terminal-presenter';
import { AIVariableContribution } from '@theia/ai-core';
import { AcpPromptAttachments } from './prompt/acp-prompt-attachments';
import { ResourceResolver } from '@theia/core/lib/common/resource';
import { ToolOutputResourceResolver } from './tool-output-resource-resolver';
import { SelectionVariableContribution } from './prompt/selection-variable-contribution';
import { ChatContentDeserializerContribution } from '@theia/ai-chat';
import { ChangeSetElementDeserializerContribution } from '@theia/ai-chat/lib/common/change-set-element-deserializer';
import { AcpTurnChanges } from './checkpoints/acp-turn-changes';
import { CheckpointRetentionContribution } from './checkpoints/checkpoint-retention-contribution';
import { AcpTurnChangeDeserializer } from './checkpoints/acp-turn-change-deserializer';
import { CheckpointResourceResolver } from './checkpoints/checkpoint-resource-resolver';
import { RestoreTurnButtonDeserializer } from './checkpoints/restore-turn-button-deserializer';
import { RestoreTurnCommandContribution } from './checkpoints/restore-turn-command-contribution';
import { FollowAgentContribution } from './follow/follow-agent-contribution';
import { FollowAgentToggleContribution } from './follow/follow-agent-toggle-contribution';
import { ChatResponsePartRenderer } from '@theia/ai-chat-ui/lib/browser/chat-response-part-renderer';
import { AgentMarkdownPartRenderer } from './agent-markdown/agent-markdown-part-renderer';
import { TabBarToolbarContribution } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { AcpRegistryBackend, acpRegistryServicePath } from '../common/acp-registry-protocol';
import { AcpRegistryAgents } from './registry/acp-registry-agents';
import { AcpRegistryCommandContribution } from './registry/acp-registry-command-contribution';
import { AcpRegistryUpdateCheck } from './registry/acp-registry-update-check';
import { AIChatInputWidget } from '@theia/ai-chat-ui/lib/browser/chat-input-widget';
import { AcpChatSettings } from './session-bar/acp-chat-settings';
import { AcpChatInputWidget } from './session-bar/acp-chat-input-widget';
import { AcpMessageQueue } from './queue/acp-message-queue';
import { AcpQuestionPartRenderer } from './questions/acp-question-part-renderer';
import { AcpSubagentPartRenderer } from './subagents/acp-subagent-part-renderer';
import { AgentChatsStatusSection } from './status/agent-chats-status-section';
import { AgentSessionTitles } from './sessions/agent-session-titles';
import { AcpSubagentToolCallDeserializer } from './subagents/acp-subagent-tool-call-deserializer';
import { AgentSessionsCommandContribution } from './sessions/agent-sessions-command-contribution';

export default new ContainerModule((bind, _unbind, _isBound, rebind) => {
    bindAcpChatPreferences(bind);
    bind(AcpFileAccess).toSelf().inSingletonScope();
    bind(AcpTerminalPresenter).toSelf().inSingletonScope();
    bind(AcpToolCallEvents).toSelf().inSingletonScope();
    bind(AcpChatSessionStates).toSelf().inSingletonScope();
    bind(AcpChatClientImpl).toSelf().inSingletonScope();
    bind(AcpChatSettings).toSelf().inSingletonScope();
    bind(AcpMessageQueue).toSelf().inSingletonScope();
    // The agent's settings and usage above the chat input (Theia's input has no contribution point for them).
    rebind(AIChatInputWidget).to(AcpChatInputWidget);
    bind(AcpChatBackend).toDynamicValue(ctx =>
        ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider).createProxy<AcpChatBackend>(acpChatServicePath, ctx.container.get(AcpChatClientImpl))
    ).inSingletonScope();
    bind(AcpChatAgentsContribution).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(AcpChatAgentsContribution);
    bind(ToolOutputResourceResolver).toSelf().inSingletonScope();
    bind(ResourceResolver).toService(ToolOutputResourceResolver);
    bind(AcpPromptAttachments).toSelf().inSingletonScope();
    bind(SelectionVariableContribution).toSelf().inSingletonScope();
    bind(AIVariableContribution).toService(SelectionVariableContribution);
    bind(AcpChatCommandContribution).toSelf().inSingletonScope();
    bind(AgentSessionsCommandContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(AgentSessionsCommandContribution);
    bind(CommandContribution).toService(AcpChatCommandContribution);
    bind(AcpTurnChanges).toSelf().inSingletonScope();
    bind(CheckpointRetentionContribution).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(CheckpointRetentionContribution);
    bind(CheckpointResourceResolver).toSelf().inSingletonScope();
    bind(ResourceResolver).toService(CheckpointResourceResolver);
    bind(AcpTurnChangeDeserializer).toSelf().inSingletonScope();
    bind(ChangeSetElementDeserializerContribution).toService(AcpTurnChangeDeserializer);
    bind(RestoreTurnButtonDeserializer).toSelf().inSingletonScope();
    bind(ChatContentDeserializerContribution).toService(RestoreTurnButtonDeserializer);
    bind(RestoreTurnCommandContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(RestoreTurnCommandContribution);
    bindResponseParts(bind);
    bind(AgentSessionTitles).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(AgentSessionTitles);
    bind(AgentChatsStatusSection).toSelf().inSingletonScope();
    bind(StatusViewSection).toService(AgentChatsStatusSection);
    bind(FollowAgentContribution).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(FollowAgentContribution);
    bind(FollowAgentToggleContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(FollowAgentToggleContribution);
    bind(TabBarToolbarContribution).toService(FollowAgentToggleContribution);
    bind(AcpRegistryBackend).toDynamicValue(ctx =>
        ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider).createProxy<AcpRegistryBackend>(acpRegistryServicePath)
    ).inSingletonScope();
    bind(AcpRegistryAgents).toSelf().inSingletonScope();
    bind(AcpRegistryCommandContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(AcpRegistryCommandContribution);
    bind(TabBarToolbarContribution).toService(AcpRegistryCommandContribution);
    bind(AcpRegistryUpdateCheck).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(AcpRegistryUpdateCheck);
});

/** How the chat draws what an agent sends into a turn, and restores it in a reopened chat. */
function bindResponseParts(bind: interfaces.Bind): void {
    // An agent's markdown: its links only to the web and into the workspace folders, in every Theia version.
    bind(AgentMarkdownPartRenderer).toSelf().inSingletonScope();
    bind(ChatResponsePartRenderer).toService(AgentMarkdownPartRenderer);
    // An agent's questions (ACP elicitation) as a form in its turn.
    bind(AcpQuestionPartRenderer).toSelf().inSingletonScope();
    bind(ChatResponsePartRenderer).toService(AcpQuestionPartRenderer);
    // A subagent's work under the tool call that started it.
    bind(AcpSubagentPartRenderer).toSelf().inSingletonScope();
    bind(ChatResponsePartRenderer).toService(AcpSubagentPartRenderer);
    bind(AcpSubagentToolCallDeserializer).toSelf().inSingletonScope();
    bind(ChatContentDeserializerContribution).toService(AcpSubagentToolCallDeserializer);
}
