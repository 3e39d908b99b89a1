import { ContainerModule } from '@theia/core/shared/inversify';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { ConnectionHandler, RpcConnectionHandler } from '@theia/core/lib/common/messaging';
import { benchFloorServicePath } from '../common/bench-floor-protocol';
import { BenchFloorChatClient, benchFloorChatServicePath } from '../common/bench-floor-chat-protocol';
import { BenchFloorSse } from './bench-floor-sse';
import { BenchFloorChat } from './bench-floor-chat';

export default new ContainerModule(bind => {
    bind(BenchFloorSse).toSelf().inSingletonScope();
    bind(BackendApplicationContribution).toService(BenchFloorSse);
    bind(ConnectionHandler).toDynamicValue(ctx => new RpcConnectionHandler(benchFloorServicePath, () => ctx.container.get(BenchFloorSse))).inSingletonScope();
    // One per connection: each window gets its own text back.
    bind(BenchFloorChat).toSelf();
    bind(ConnectionHandler).toDynamicValue(ctx => new RpcConnectionHandler<BenchFloorChatClient>(benchFloorChatServicePath, client => {
        const chat = ctx.container.get(BenchFloorChat);
        chat.setClient(client);
        return chat;
    })).inSingletonScope();
});
