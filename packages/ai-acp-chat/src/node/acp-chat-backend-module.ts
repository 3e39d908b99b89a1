import { ContainerModule } from '@theia/core/shared/inversify';
import { ConnectionContainerModule } from '@theia/core/lib/node/messaging/connection-container-module';
import { RpcProxy } from '@theia/core/lib/common/messaging/proxy-factory';
import { AcpChatBackend, AcpChatClient, acpChatServicePath } from '../common/acp-chat-protocol';
import { AcpChatBackendImpl } from './acp-chat-backend-impl';
import { AcpTerminalHost } from './acp-terminal-host';
import { AcpTurnCheckpoints } from './acp-turn-checkpoints';

const windowConnectionModule = ConnectionContainerModule.create(({ bind, bindBackendService }) => {
    bind(AcpTerminalHost).toSelf().inSingletonScope();
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
    bind(ConnectionContainerModule).toConstantValue(windowConnectionModule);
});
