import { ContainerModule } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { BenchFloorService, benchFloorServicePath } from '../common/bench-floor-protocol';
import { BenchFloorPageHook } from './bench-floor-page-hook';

export default new ContainerModule(bind => {
    bind(BenchFloorService).toDynamicValue(ctx => ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider)
        .createProxy<BenchFloorService>(benchFloorServicePath)).inSingletonScope();
    bind(BenchFloorPageHook).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(BenchFloorPageHook);
});
