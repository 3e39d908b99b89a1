import { ContainerModule } from '@theia/core/shared/inversify';
import { ConnectionContainerModule } from '@theia/core/lib/node/messaging/connection-container-module';
import { RpcConnectionHandler, RpcProxy } from '@theia/core/lib/common/messaging/proxy-factory';
import { AcpChatBackend, AcpChatClient, acpChatServicePath } from '../common/acp-chat-protocol';
import { AcpChatBackendImpl } from './acp-chat-backend-impl';
import { AcpAgentLauncher } from './acp-agent-launcher';
import { AcpFileSystemHost } from './acp-file-system-host';
import { AcpTerminalHost } from './acp-terminal-host';
import { AcpTurnCheckpoints } from './acp-turn-checkpoints';
import { StorageUsageContribution } from '@theia-cli-companion/ai-cli-core/lib/node';
import { ConnectionHandler } from '@theia/core/lib/common/messaging/handler';
import { AcpRegistryBackend, acpRegistryServicePath } from '../common/acp-registry-protocol';
import { AcpRegistryBackendImpl } from './registry/acp-registry-backend-impl';

const windowConnectionModule = ConnectionContainerModule.create(({ bind, bindBackendService }) => {
    bind(AcpTerminalHost).toSelf().inSingletonScope();
    bind(AcpFileSystemHost).toSelf().inSingletonScope();
    bind(AcpAgentLauncher).toSelf().inSingletonScope();
    bind(AcpChatBackendImpl).toSelf().inSingletonScope();
    bind(AcpChatBackend).toService(AcpChatBackendImpl);
    bindBackendService<AcpChatBackend, AcpChatClient>(acpChatServicePath, AcpChatBackend, (service, client: RpcProxy<AcpChatClient>) => {
        service.setClient(client);
        client.onDidCloseConnection(() => (service as unknown as AcpChatBackendImpl).dispose());
        return service;
    });
});

export default new ContainerModule(bind => {
    // One store for every window: a chat's checkpoints outlive its window (a reload) and the backend (a restart).
    bind(AcpTurnCheckpoints).toSelf().inSingletonScope();
    bind(StorageUsageContribution).toService(AcpTurnCheckpoints);
    bind(ConnectionContainerModule).toConstantValue(windowConnectionModule);
    // One for every window: installs of an agent run one after another, whichever window asked.
    bind(AcpRegistryBackendImpl).toSelf().inSingletonScope();
    bind(AcpRegistryBackend).toService(AcpRegistryBackendImpl);
    bind(ConnectionHandler).toDynamicValue(ctx => new RpcConnectionHandler(acpRegistryServicePath, () => ctx.container.get(AcpRegistryBackend))).inSingletonScope();
});
