import { ContainerModule } from '@theia/core/shared/inversify';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { ConnectionContainerModule } from '@theia/core/lib/node/messaging/connection-container-module';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { RpcConnectionHandler, RpcProxy } from '@theia/core/lib/common/messaging/proxy-factory';
import { ConnectionHandler } from '@theia/core/lib/common/messaging/handler';
import { IdeCompanionBackend, ideCompanionServicePath } from '../common/ide-companion-protocol';
import { StorageUsageService, storageUsageServicePath } from '../common/storage-usage-protocol';
import { WindowEditorClient } from '@theia-cli-companion/ide-companion-server/lib/common';
import { IdeCompanionBackendImpl } from './ide-companion-backend-impl';
import { WindowAgentCredentials } from './window-agent-credentials';
import { CleanSignalExit } from './clean-signal-exit';
import { WindowServerRegistry } from './window-server-registry';
import { WindowModuleContribution } from './window-module-contribution';
import { StorageUsageContribution } from './storage-usage-contribution';
import { StorageUsageServiceImpl } from './storage-usage-service-impl';

const windowConnectionModule = ConnectionContainerModule.create(({ bind, bindBackendService }) => {
    bind(IdeCompanionBackendImpl).toSelf().inSingletonScope();
    bind(IdeCompanionBackend).toService(IdeCompanionBackendImpl);
    bind(WindowAgentCredentials).toService(IdeCompanionBackendImpl);
    bindBackendService<IdeCompanionBackend, WindowEditorClient>(ideCompanionServicePath, IdeCompanionBackend,
        (service, client: RpcProxy<WindowEditorClient>) => {
            service.setClient(client);
            client.onDidCloseConnection(() => (service as unknown as IdeCompanionBackendImpl).dispose());
            return service;
        });
});

export default new ContainerModule(bind => {
    bindContributionProvider(bind, WindowModuleContribution);
    bind(WindowServerRegistry).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(WindowServerRegistry);
    bind(CleanSignalExit).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(CleanSignalExit);
    bind(ConnectionContainerModule).toConstantValue(windowConnectionModule);
    // The stores of the other extensions (checkpoints, agent tasks) report their size for the status view.
    bindContributionProvider(bind, StorageUsageContribution);
    bind(StorageUsageServiceImpl).toSelf().inSingletonScope();
    bind(StorageUsageService).toService(StorageUsageServiceImpl);
    bind(ConnectionHandler).toDynamicValue(ctx => new RpcConnectionHandler(storageUsageServicePath, () => ctx.container.get(StorageUsageService))).inSingletonScope();
});
