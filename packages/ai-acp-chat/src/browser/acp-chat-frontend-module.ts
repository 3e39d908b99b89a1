import { ContainerModule } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { AcpChatBackend, acpChatServicePath } from '../common/acp-chat-protocol';
import { bindAcpChatPreferences } from '../common/acp-chat-preferences';
import { AcpChatAgentsContribution } from './acp-chat-agents-contribution';
import { AcpChatCommandContribution } from './acp-chat-command-contribution';
import { CommandContribution } from '@theia/core/lib/common/command';
import { AcpChatClientImpl } from './acp-chat-client-impl';
import { AcpFileAccess } from './acp-file-access';
import { AcpTerminalPresenter } from './acp-terminal-presenter';
import { AIVariableContribution } from '@theia/ai-core';
import { AcpPromptAttachments } from './prompt/acp-prompt-attachments';
import { ResourceResolver } from '@theia/core/lib/common/resource';
import { ToolOutputResourceResolver } from './tool-output-resource-resolver';
import { SelectionVariableContribution } from './prompt/selection-variable-contribution';

export default new ContainerModule(bind => {
    bindAcpChatPreferences(bind);
    bind(AcpFileAccess).toSelf().inSingletonScope();
    bind(AcpTerminalPresenter).toSelf().inSingletonScope();
    bind(AcpChatClientImpl).toSelf().inSingletonScope();
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
    bind(CommandContribution).toService(AcpChatCommandContribution);
});
