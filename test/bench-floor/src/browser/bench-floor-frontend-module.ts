import { ContainerModule } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { Agent } from '@theia/ai-core';
import { ChatAgent } from '@theia/ai-chat';
import { BenchFloorService, benchFloorServicePath } from '../common/bench-floor-protocol';
import { BenchFloorChatService, benchFloorChatServicePath } from '../common/bench-floor-chat-protocol';
import { BenchFloorPageHook } from './bench-floor-page-hook';
import { BenchFloorCursorForwarder } from './bench-floor-cursor-forwarder';
import { BenchFloorChatAgent, BenchFloorChatClientImpl } from './bench-floor-chat-agent';

export default new ContainerModule(bind => {
    bind(BenchFloorService).toDynamicValue(ctx => ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider)
        .createProxy<BenchFloorService>(benchFloorServicePath)).inSingletonScope();
    bind(BenchFloorPageHook).toSelf().inSingletonScope();
    bind(BenchFloorCursorForwarder).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(BenchFloorCursorForwarder);
    bind(FrontendApplicationContribution).toService(BenchFloorPageHook);
    bind(BenchFloorChatClientImpl).toSelf().inSingletonScope();
    bind(BenchFloorChatService).toDynamicValue(ctx => ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider)
        .createProxy<BenchFloorChatService>(benchFloorChatServicePath, ctx.container.get(BenchFloorChatClientImpl))).inSingletonScope();
    bind(BenchFloorChatAgent).toSelf().inSingletonScope();
    bind(Agent).toService(BenchFloorChatAgent);
    bind(ChatAgent).toService(BenchFloorChatAgent);
});
