import type { CommandRegistry } from '@theia/core/lib/common/command';
import type { ChatService } from '@theia/ai-chat';

/** Theia AI's command that shows a chat in the chat view (Theia 1.74 on; before it, activating the chat shows it). */
const OPEN_CHAT_COMMAND = 'ai-chat-ui.open-session';

/** Makes the chat the active one and shows it in the chat view. */
export async function showChat(chats: ChatService, commands: CommandRegistry, chatId: string): Promise<void> {
    chats.setActiveSession(chatId, { focus: true });
    if (commands.getCommand(OPEN_CHAT_COMMAND)) {
        await commands.executeCommand(OPEN_CHAT_COMMAND, chatId);
    }
}
