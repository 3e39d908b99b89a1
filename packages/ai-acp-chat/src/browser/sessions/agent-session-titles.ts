import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { ChatService } from '@theia/ai-chat';
import { AcpChatSessionStates } from '../acp-chat-session-states';

/** The longest title taken from an agent; longer ones are cut. */
const MAX_TITLE_LENGTH = 120;

/**
 * The agent's name for its session (session_info_update: Codex and Claude Code name a session after its first turn)
 * becomes the chat's title, unless the user named the chat: only a title Theia set by itself (the first message's
 * text) or one taken from the agent before is replaced.
 */
@injectable()
export class AgentSessionTitles implements FrontendApplicationContribution {
    @inject(AcpChatSessionStates) protected readonly states: AcpChatSessionStates;
    @inject(ChatService) protected readonly chats: ChatService;
    /** The title last taken from the agent, by chat id. */
    protected readonly taken = new Map<string, string>();

    onStart(): void {
        this.states.onDidChange(chatId => this.follow(chatId));
    }

    protected follow(chatId: string): void {
        const title = agentTitle(this.states.of(chatId).title);
        const chat = this.chats.getSession(chatId);
        if (!chat) {
            this.taken.delete(chatId);
            return;
        }
        if (title === undefined || title === chat.title) {
            return;
        }
        const first = chat.model.getRequests()[0]?.request;
        const automatic = chat.title === undefined || chat.title === first?.displayText || chat.title === first?.text || chat.title === this.taken.get(chatId);
        if (automatic) {
            this.taken.set(chatId, title);
            void this.chats.renameSession(chatId, title);
        }
    }
}

/** The agent's title as a chat title: one line without control characters, at most 120 characters; undefined when empty. */
export function agentTitle(title: unknown): string | undefined {
    if (typeof title !== 'string') {
        return undefined;
    }
    const line = title.replace(/[\p{C}\s]+/gu, ' ').trim();
    if (!line) {
        return undefined;
    }
    return line.length > MAX_TITLE_LENGTH ? `${line.slice(0, MAX_TITLE_LENGTH - 1)}…` : line;
}
