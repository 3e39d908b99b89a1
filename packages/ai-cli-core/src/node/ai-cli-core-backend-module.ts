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
import { KeepAwakeBackend, KeepAwakeClient, keepAwakeServicePath } from '../common/keep-awake-protocol';
import { AgentWorkRegistry } from './keep-awake/agent-work-registry';
import { KeepAwakeBackendImpl } from './keep-awake/keep-awake-backend-impl';
import { KeepAwakeService } from './keep-awake/keep-awake-service';
import { TheiaCloudSessionReporter } from './keep-awake/theia-cloud-session-reporter';
import { WindowCommandReporter } from './keep-awake/window-command-reporter';
import { WorkspaceActivityReporter } from './keep-awake/workspace-activity-reporter';

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
    bind(KeepAwakeBackendImpl).toSelf().inSingletonScope();
    bind(KeepAwakeBackend).toService(KeepAwakeBackendImpl);
    bindBackendService<KeepAwakeBackend, KeepAwakeClient>(keepAwakeServicePath, KeepAwakeBackend, (service, client: RpcProxy<KeepAwakeClient>) => {
        service.setClient(client);
        client.onDidCloseConnection(() => (service as KeepAwakeBackendImpl).dispose());
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
    // The chat's turns and agent tasks register their work; while any runs, the platform hears of activity.
    bind(AgentWorkRegistry).toSelf().inSingletonScope();
    bindContributionProvider(bind, WorkspaceActivityReporter);
    bind(WindowCommandReporter).toSelf().inSingletonScope();
    bind(WorkspaceActivityReporter).toService(WindowCommandReporter);
    bind(TheiaCloudSessionReporter).toSelf().inSingletonScope();
    bind(WorkspaceActivityReporter).toService(TheiaCloudSessionReporter);
    bind(KeepAwakeService).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(KeepAwakeService);
});
