import { interfaces } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { KeepAwakeBackend, keepAwakeServicePath } from '../../common/keep-awake-protocol';
import { StatusViewSection } from '../status-view/status-view-section';
import { KeepAwakeClientImpl } from './keep-awake-client-impl';
import { KeepAwakeIntervalSetting } from './keep-awake-interval-setting';
import { KeepAwakeStatusSection } from './keep-awake-status-section';

/** The window's part in keeping the workspace awake: connected at start (through the interval setting), so the backend can ask it to run its activity commands. */
export function bindKeepAwake(bind: interfaces.Bind): void {
    bind(KeepAwakeClientImpl).toSelf().inSingletonScope();
    bind(KeepAwakeBackend).toDynamicValue(ctx =>
        ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider)
            .createProxy<KeepAwakeBackend>(keepAwakeServicePath, ctx.container.get(KeepAwakeClientImpl))
    ).inSingletonScope();
    bind(KeepAwakeIntervalSetting).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(KeepAwakeIntervalSetting);
    bind(KeepAwakeStatusSection).toSelf().inSingletonScope();
    bind(StatusViewSection).toService(KeepAwakeStatusSection);
}
