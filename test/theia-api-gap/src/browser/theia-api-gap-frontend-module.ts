import { ContainerModule } from '@theia/core/shared/inversify';
import { ChatAgentService, ChatAgentServiceImpl } from '@theia/ai-chat';

/** What a Theia release could rename or remove: the calls that add and remove chat agents at run time. */
const TAKEN_AWAY = new Set<PropertyKey>(['registerChatAgent', 'unregisterChatAgent']);

/**
 * Test only, never in a product app: Theia AI's chat agent service without the calls the ACP chat
 * registers its agents with. Everything else of the service (Theia's own agents) works as before.
 */
export default new ContainerModule((_bind, _unbind, _isBound, rebind) => {
    rebind(ChatAgentService).toDynamicValue(ctx => {
        const service = ctx.container.get(ChatAgentServiceImpl);
        return new Proxy(service, {
            get: (target, property, receiver) => TAKEN_AWAY.has(property) ? undefined : Reflect.get(target, property, receiver)
        });
    }).inSingletonScope();
});
