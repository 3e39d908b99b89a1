import { ContainerModule } from '@theia/core/shared/inversify';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { ConnectionHandler, RpcConnectionHandler } from '@theia/core/lib/common/messaging';
import { benchFloorServicePath } from '../common/bench-floor-protocol';
import { BenchFloorSse } from './bench-floor-sse';

export default new ContainerModule(bind => {
    bind(BenchFloorSse).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(BenchFloorSse);
    bind(ConnectionHandler).toDynamicValue(ctx => new RpcConnectionHandler(benchFloorServicePath, () => ctx.container.get(BenchFloorSse))).inSingletonScope();
});
