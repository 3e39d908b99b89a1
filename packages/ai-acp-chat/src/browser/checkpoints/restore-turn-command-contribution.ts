import { inject, injectable } from '@theia/core/shared/inversify';
import { CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { ChatService } from '@theia/ai-chat';
import { AcpTurnChanges, RESTORE_TURN_COMMAND } from './acp-turn-changes';

/**
 * *Restore to Before This Turn*: the button under a turn that changed files passes the chat and the
 * turn; from the palette it restores the active chat to before its last turn that changed files.
 */
@injectable()
export class RestoreTurnCommandContribution implements CommandContribution {

    @inject(AcpTurnChanges) protected readonly turnChanges: AcpTurnChanges;
    @inject(ChatService) protected readonly chats: ChatService;

    registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(RESTORE_TURN_COMMAND, {
            // Enabled without arguments too: the chat renders the button only when the command is.
            isEnabled: () => true,
            isVisible: (...args: unknown[]) => args.length > 0 || !!this.lastTurn(),
            execute: async (chatSessionId?: unknown, turnId?: unknown) => {
                const at = typeof chatSessionId === 'string' && typeof turnId === 'string' ? { chatSessionId, turnId } : this.lastTurn();
                if (at) {
                    await this.turnChanges.restore(at);
                }
            }
        });
    }

    protected lastTurn(): { chatSessionId: string; turnId: string } | undefined {
        const chatSessionId = this.chats.getActiveSession()?.id;
        return chatSessionId ? this.turnChanges.turnsOf(chatSessionId).at(-1) : undefined;
    }
}
