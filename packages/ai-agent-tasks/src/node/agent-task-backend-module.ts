import { ContainerModule } from '@theia/core/shared/inversify';
import { ConnectionContainerModule } from '@theia/core/lib/node/messaging/connection-container-module';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { RpcProxy } from '@theia/core/lib/common/messaging/proxy-factory';
import { AgentTaskBackend, AgentTaskClient, agentTaskServicePath } from '../common/agent-task-protocol';
import { AgentTaskBackendImpl } from './agent-task-backend-impl';
import { AgentTaskManager } from './agent-task-manager';
import { StorageUsageContribution } from '@theia-cli-companion/ai-cli-core/lib/node';

const windowConnectionModule = ConnectionContainerModule.create(({ bind, bindBackendService }) => {
    bind(AgentTaskBackendImpl).toSelf().inSingletonScope();
    bind(AgentTaskBackend).toService(AgentTaskBackendImpl);
    bindBackendService<AgentTaskBackend, AgentTaskClient>(agentTaskServicePath, AgentTaskBackend, (service, client: RpcProxy<AgentTaskClient>) => {
        service.setClient(client);
        client.onDidCloseConnection(() => (service as unknown as AgentTaskBackendImpl).dispose());
        return service;
    });
});

export default new ContainerModule(bind => {
    bind(AgentTaskManager).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(AgentTaskManager);
    bind(StorageUsageContribution).toService(AgentTaskManager);
    bind(ConnectionContainerModule).toConstantValue(windowConnectionModule);
});
