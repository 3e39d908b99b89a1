import { inject, injectable } from '@theia/core/shared/inversify';
import { Command, CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { QuickInputService, QuickPickItem } from '@theia/core/lib/common/quick-pick-service';
import { ChatService } from '@theia/ai-chat';
import { ToolOutputResourceResolver } from './tool-output-resource-resolver';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import { AcpChatBackend } from '../common/acp-chat-protocol';
import { AcpChatAgent } from './acp-chat-agent';
import { AcpChatAgentsContribution } from './acp-chat-agents-contribution';

export namespace AcpChatCommands {
    const CATEGORY = 'CLI Companion';
    const CATEGORY_KEY = 'theia-cli-companion/ide-companion/category';
    export const SET_MODE = Command.toLocalizedCommand({ id: 'aiCliCompanion.acp.setMode', category: CATEGORY, label: 'Set Agent Mode…' },
        'theia-cli-companion/acp-chat/setMode', CATEGORY_KEY);
    export const SET_MODEL = Command.toLocalizedCommand({ id: 'aiCliCompanion.acp.setModel', category: CATEGORY, label: 'Set Agent Model…' },
        'theia-cli-companion/acp-chat/setModel', CATEGORY_KEY);
    export const BROWSE_SESSIONS = Command.toLocalizedCommand({ id: 'aiCliCompanion.acp.browseSessions', category: CATEGORY, label: 'Browse Agent Sessions…' },
        'theia-cli-companion/acp-chat/browseSessions', CATEGORY_KEY);
    export const SHOW_TOOL_OUTPUT = Command.toLocalizedCommand({ id: 'aiCliCompanion.acp.showToolOutput', category: CATEGORY, label: 'Show Full Tool Output…' },
        'theia-cli-companion/acp-chat/showToolOutput', CATEGORY_KEY);
}

type Choice = QuickPickItem & { readonly value: string };

/** The current chat's ACP session: switch its mode (Gemini: default, auto edit, YOLO, plan) or its model. */
@injectable()
export class AcpChatCommandContribution implements CommandContribution {

    @inject(ChatService) protected readonly chats: ChatService;
    @inject(AcpChatAgentsContribution) protected readonly agents: AcpChatAgentsContribution;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(AcpChatBackend) protected readonly backend: AcpChatBackend;
    @inject(ToolOutputResourceResolver) protected readonly outputs: ToolOutputResourceResolver;
    @inject(OpenerService) protected readonly openers: OpenerService;

    registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(AcpChatCommands.SET_MODE, {
            isEnabled: () => !!this.current()?.session.modes?.availableModes.length,
            execute: () => this.choose('mode')
        });
        commands.registerCommand(AcpChatCommands.SET_MODEL, {
            isEnabled: () => !!this.current()?.session.models?.availableModels?.length,
            execute: () => this.choose('model')
        });
        commands.registerCommand(AcpChatCommands.SHOW_TOOL_OUTPUT, {
            isEnabled: () => !!this.current()?.agent.omittedOutputsOf(this.current()!.chatId).size,
            execute: () => this.showToolOutput()
        });
    }

    /** Opens the whole output of one of the chat's tool calls whose output the chat shows cut, in a read-only editor. */
    protected async showToolOutput(): Promise<void> {
        const current = this.current();
        if (!current) {
            return;
        }
        const omitted = [...current.agent.omittedOutputsOf(current.chatId)].reverse();
        const picked = omitted.length === 1 ? { value: omitted[0][0], label: omitted[0][1] } : await this.quickInput.pick(
            omitted.map(([toolCallId, title]) => ({ label: title, description: toolCallId, value: toolCallId })),
            { placeHolder: nls.localize('theia-cli-companion/acp-chat/pickToolOutput', 'Whose whole output?') });
        if (!picked) {
            return;
        }
        const text = await this.backend.toolOutput(current.chatId, picked.value);
        if (text === undefined) {
            this.messages.warn(nls.localize('theia-cli-companion/acp-chat/toolOutputGone',
                'The output of {0} is no longer kept (the agent\'s session ended, or many tool calls came after it).', picked.label));
            return;
        }
        await open(this.openers, this.outputs.put(picked.label, `${current.chatId}/${picked.value}`, text));
    }

    protected current(): { chatId: string; agent: AcpChatAgent; session: NonNullable<ReturnType<AcpChatAgent['sessionOf']>> } | undefined {
        const chatId = this.chats.getActiveSession()?.id;
        const agent = chatId ? this.agents.agentOf(chatId) : undefined;
        const session = chatId ? agent?.sessionOf(chatId) : undefined;
        return chatId && agent && session ? { chatId, agent, session } : undefined;
    }

    protected async choose(what: 'mode' | 'model'): Promise<void> {
        const current = this.current();
        if (!current) {
            return;
        }
        const { chatId, agent, session } = current;
        const choices: Choice[] = what === 'mode'
            ? (session.modes?.availableModes ?? []).map(mode => ({
                label: mode.name, description: mode.description ?? undefined, value: mode.id, picked: mode.id === session.modes?.currentModeId
            }))
            : (session.models?.availableModels ?? []).map(model => ({
                label: model.name, description: model.modelId, value: model.modelId, picked: model.modelId === session.models?.currentModelId
            }));
        const picked = await this.quickInput.pick(choices, {
            placeHolder: what === 'mode'
                ? nls.localize('theia-cli-companion/acp-chat/pickMode', 'Mode of {0} in this chat (now: {1})', agent.name, session.modes?.currentModeId ?? '?')
                : nls.localize('theia-cli-companion/acp-chat/pickModel', 'Model of {0} in this chat (now: {1})', agent.name, session.models?.currentModelId ?? '?')
        });
        if (!picked) {
            return;
        }
        try {
            await (what === 'mode' ? agent.setMode(chatId, picked.value) : agent.setModel(chatId, picked.value));
        } catch (error) {
            this.messages.error(nls.localize('theia-cli-companion/acp-chat/switchFailed',
                '{0} could not switch to {1}: {2}', agent.name, picked.label, String((error as Error)?.message ?? error)));
        }
    }
}
