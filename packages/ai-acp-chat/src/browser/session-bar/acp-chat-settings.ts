import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ChatService } from '@theia/ai-chat';
import { nls } from '@theia/core/lib/common/nls';
import { isRecord, ownField } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatBackend, AcpSessionInfo } from '../../common/acp-chat-protocol';
import { AcpChatSessionStates } from '../acp-chat-session-states';

/** The settings the user chose in a chat, by agent name then config option id, stored with the chat. */
export const ACP_CONFIG_CHOICES_SETTING = 'acpConfigChoices';

/** What a chat's settings are read from and written to: Theia's chat model. */
export interface ChatSettingsHolder {
    readonly settings?: { [key: string]: unknown };
    setSettings(settings: { [key: string]: unknown }): void;
}

/**
 * An agent's settings (its ACP config options) in one chat: a change goes to the agent with
 * `session/set_config_option`, its answer replaces what the chat shows, and the choice is kept with the chat
 * so that a later session of it (the chat reopened, the agent restarted) gets it again.
 */
@injectable()
export class AcpChatSettings {
    @inject(AcpChatBackend) protected readonly backend: AcpChatBackend;
    @inject(AcpChatSessionStates) protected readonly states: AcpChatSessionStates;
    @inject(ChatService) protected readonly chats: ChatService;
    /** Chats whose choices are being set again on a new session: the agent's answers meanwhile are not new choices. */
    protected readonly restoring = new Set<string>();

    @postConstruct()
    protected init(): void {
        this.states.onAgentChangedOptions(chatId => this.followAgent(chatId));
    }

    /**
     * The agent changed a setting itself (it left plan mode): a choice the chat keeps for it follows, so that the next
     * session does not put the old one back.
     */
    protected followAgent(chatId: string): void {
        const chat = this.chats.getSession(chatId)?.model as (ChatSettingsHolder & { id: string }) | undefined;
        const { agentName, configOptions } = this.states.of(chatId);
        if (!chat || !agentName || this.restoring.has(chatId)) {
            return;
        }
        const choices = choicesOf(chat);
        const own = Object.entries(ownRecord(choices, agentName));
        const followed = own.map(([configId, value]) => [configId, configOptions.find(option => option.id === configId)?.currentValue ?? value] as const);
        if (followed.some(([, value], index) => value !== own[index][1])) {
            chat.setSettings({ ...chat.settings, [ACP_CONFIG_CHOICES_SETTING]: { ...choices, [agentName]: Object.fromEntries(followed) } });
        }
    }

    async set(chat: ChatSettingsHolder & { readonly id: string }, agentName: string, configId: string, value: string | boolean): Promise<void> {
        const options = await this.backend.setConfigOption(chat.id, configId, value);
        this.states.replaceOptions(chat.id, options);
        const choices = choicesOf(chat);
        chat.setSettings({
            ...chat.settings,
            [ACP_CONFIG_CHOICES_SETTING]: { ...choices, [agentName]: { ...ownRecord(choices, agentName), [configId]: value } }
        });
    }

    /**
     * A session of the chat started: the state it shows is the agent's, then each choice kept with the chat that the agent
     * still offers and has not already is set again. What could not be set is returned, to be said in the chat.
     */
    async restore(chat: ChatSettingsHolder, session: AcpSessionInfo, agentName: string): Promise<string[]> {
        this.restoring.add(session.chatSessionId);
        try {
            return await this.setAgain(chat, session, agentName);
        } finally {
            this.restoring.delete(session.chatSessionId);
        }
    }

    protected async setAgain(chat: ChatSettingsHolder, session: AcpSessionInfo, agentName: string): Promise<string[]> {
        this.states.adopt(session, agentName);
        const problems: string[] = [];
        for (const [configId, value] of Object.entries(ownRecord(choicesOf(chat), agentName))) {
            const option = this.states.of(session.chatSessionId).configOptions.find(candidate => candidate.id === configId);
            if (!option || (typeof value !== 'string' && typeof value !== 'boolean') || option.currentValue === value) {
                continue;
            }
            if (!offers(option, value)) {
                problems.push(nls.localize('theia-cli-companion/acp-chat/settingGone', '{0} no longer offers {1} for {2}.', agentName, String(value), option.name));
                continue;
            }
            try {
                this.states.replaceOptions(session.chatSessionId, await this.backend.setConfigOption(session.chatSessionId, configId, value));
            } catch (error) {
                problems.push(nls.localize('theia-cli-companion/acp-chat/settingNotRestored', '{0} did not take {1} for {2}: {3}', agentName, String(value), option.name,
                    error instanceof Error ? error.message : String(error)));
            }
        }
        return problems;
    }
}

/** Whether the option takes the value: a boolean for a boolean option, one of its choices for a select. */
export function offers(option: acp.SessionConfigOption, value: string | boolean): boolean {
    if (option.type === 'boolean') {
        return typeof value === 'boolean';
    }
    return typeof value === 'string' && option.options.some(entry => 'group' in entry ? entry.options.some(choice => choice.value === value) : entry.value === value);
}

function choicesOf(chat: ChatSettingsHolder): Record<string, unknown> {
    const choices = chat.settings?.[ACP_CONFIG_CHOICES_SETTING];
    return isRecord(choices) ? choices : {};
}

/** The record under `key` (agent names come from settings: only own keys count). */
function ownRecord(record: Record<string, unknown>, key: string): Record<string, unknown> {
    const value = ownField(record, key);
    return isRecord(value) ? value : {};
}
