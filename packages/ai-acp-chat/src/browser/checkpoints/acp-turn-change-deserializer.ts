import { inject, injectable } from '@theia/core/shared/inversify';
import { z } from 'zod';
import type { ChangeSetElement } from '@theia/ai-chat';
import type { SerializableChangeSetElement } from '@theia/ai-chat/lib/common/chat-model-serialization';
import { ChangeSetElementDeserializerContribution, ChangeSetElementDeserializerRegistry } from '@theia/ai-chat/lib/common/change-set-element-deserializer';
import { ACP_TURN_CHANGE_KIND } from './acp-turn-change-element';
import { AcpTurnChanges } from './acp-turn-changes';

/** A stored chat's element, as `AcpTurnChangeElement.toSerializable` wrote it: checked, since the chat store is a file. */
const StoredElementSchema = z.object({
    at: z.object({ chatSessionId: z.string(), turnId: z.string() }),
    agentName: z.string(),
    change: z.object({
        path: z.string(), relativePath: z.string(), kind: z.enum(['added', 'modified', 'deleted']), reviewable: z.boolean(), binary: z.boolean(),
        restoredAt: z.number().optional(), unreadable: z.string().max(4000).optional()
    })
});

/** A reopened chat (after a reload or a backend restart) lists its turns' changes again, with working actions. */
@injectable()
export class AcpTurnChangeDeserializer implements ChangeSetElementDeserializerContribution {

    @inject(AcpTurnChanges) protected readonly turnChanges: AcpTurnChanges;

    registerDeserializers(registry: ChangeSetElementDeserializerRegistry): void {
        registry.register({
            kind: ACP_TURN_CHANGE_KIND,
            deserialize: (serialized: SerializableChangeSetElement): ChangeSetElement => {
                const { at, agentName, change } = StoredElementSchema.parse(serialized.data);
                return this.turnChanges.element(at, change, agentName);
            }
        });
    }
}
