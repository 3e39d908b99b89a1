import { injectable } from '@theia/core/shared/inversify';
import {
    ChatContentDeserializerContribution, ChatContentDeserializerRegistry, CommandChatResponseContentImpl, CommandContentData
} from '@theia/ai-chat';
import { RESTORE_TURN_COMMAND } from './acp-turn-changes';

/**
 * Theia restores a stored chat's command buttons by id only, so a reopened chat would label the
 * *Restore to Before This Turn* button with its id. This keeps Theia's behaviour for every other
 * command and gives ours its label back (registered after Theia's, so it takes the `command` kind).
 */
@injectable()
export class RestoreTurnButtonDeserializer implements ChatContentDeserializerContribution {
    registerDeserializers(registry: ChatContentDeserializerRegistry): void {
        registry.register({
            kind: 'command',
            deserialize: (data: CommandContentData) => {
                const command = data.commandId === RESTORE_TURN_COMMAND.id ? RESTORE_TURN_COMMAND : data.commandId ? { id: data.commandId } : undefined;
                return new CommandChatResponseContentImpl(command, undefined, data.arguments);
            }
        });
    }
}
