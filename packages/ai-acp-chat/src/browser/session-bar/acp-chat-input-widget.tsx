import * as React from '@theia/core/shared/react';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import type { ChatAgent, MutableChatModel } from '@theia/ai-chat';
import { AIChatInputWidget } from '@theia/ai-chat-ui/lib/browser/chat-input-widget';
import { AcpChatSessionStates } from '../acp-chat-session-states';
import { AcpMessageQueue } from '../queue/acp-message-queue';
import { AcpQueuedMessages } from '../queue/acp-queued-messages';
import { AcpChatAgentsContribution } from '../acp-chat-agents-contribution';
import { AcpChatSettings } from './acp-chat-settings';
import { AcpSessionBar } from './acp-session-bar';

/** What the chat view does with a message (Theia's input takes it through its `onQuery` setter). */
type Query = AIChatInputWidget['onQuery'];

/**
 * Theia AI's chat input with the ACP session bar above it: the settings and usage of the agent the next
 * message goes to, when that agent is the one whose session the chat has, and the messages sent while an
 * ACP agent's turn runs, queued (Theia's chat would cancel the turn). Theia's input has no place for an
 * agent's own controls, so the bar wraps what Theia renders and leaves it as it is.
 */
@injectable()
export class AcpChatInputWidget extends AIChatInputWidget {
    @inject(AcpChatSessionStates) protected readonly acpStates: AcpChatSessionStates;
    @inject(AcpChatSettings) protected readonly acpSettings: AcpChatSettings;
    @inject(MessageService) protected readonly acpMessages: MessageService;
    @inject(AcpMessageQueue) protected readonly acpQueue: AcpMessageQueue;
    @inject(AcpChatAgentsContribution) protected readonly acpAgents: AcpChatAgentsContribution;
    /** The setting being sent to the agent, by chat. */
    protected readonly acpChanging = new Map<string, string>();

    @postConstruct()
    protected override init(): void {
        super.init();
        this.toDispose.push(this.acpQueue.onDidChange(chatId => {
            if (chatId === this._chatModel?.id) {
                this.update();
            }
        }));
        this.toDispose.push(this.acpStates.onDidChange(chatId => {
            if (chatId === this._chatModel?.id) {
                // A session that just started may have brought the agent's modes: the selector reads them again.
                this.scheduleUpdateReceivingAgent();
                this.update();
            }
        }));
    }

    /** Theia reads an agent's modes only when the addressed agent changes; an ACP agent knows its modes once its session started. */
    protected override async updateAgentState(agent: ChatAgent | undefined): Promise<void> {
        const shown = this.receivingAgent;
        if (agent && shown && agent.id === shown.agentId && (agent.modes ?? []).map(mode => mode.id).join('\n') !== shown.modes.map(mode => mode.id).join('\n')) {
            this.forceCapabilitiesRefresh = true;
        }
        return super.updateAgentState(agent);
    }

    /** A message sent while an ACP agent's turn runs waits for it to end, instead of cancelling it. */
    override set onQuery(query: Query) {
        super.onQuery = async (prompt, mode, capabilityOverrides, genericCapabilitySelections, ...rest) => {
            const chat = this._chatModel;
            const running = chat && this.acpQueue.running(chat);
            // Also while a queued message is on its way (no request yet): it goes first, this one after it.
            if (chat && this.acpQueue.isBusy(chat) && (!running || this.acpAgents.isAcpAgent(running.agentId))) {
                // The message's images stay registered while it waits (Theia resolves them only when it is sent).
                const images = new Map(this.pendingImageDisposables);
                this.pendingImageDisposables.clear();
                // As Theia's chat view would send it (server tool selections, Theia 1.74 on, do not apply to ACP agents).
                this.acpQueue.add(chat, { text: prompt, modeId: mode, capabilityOverrides, genericCapabilitySelections, variables: this.getAllVariablesForRequest() }, images);
                return;
            }
            return query(prompt, mode, capabilityOverrides, genericCapabilitySelections, ...rest);
        };
    }

    /**
     * After a message is sent from the input: its images go. Theia also clears every image of the chat, which would
     * take those of messages still queued (a paused queue): then only the input's own go.
     */
    override clearPendingImageAttachments(): void {
        const chat = this._chatModel;
        if (!chat || !this.acpQueue.holdsImages(chat.id)) {
            return super.clearPendingImageAttachments();
        }
        this.pendingImageDisposables.forEach(image => image.dispose());
        this.pendingImageDisposables.clear();
    }

    protected override render(): React.ReactNode {
        return <>
            {this.renderQueue()}
            {this.renderSessionBar()}
            {super.render()}
        </>;
    }

    protected renderQueue(): React.ReactNode {
        const chat = this._chatModel;
        if (!chat) {
            return undefined;
        }
        return <AcpQueuedMessages messages={this.acpQueue.of(chat.id)} paused={this.acpQueue.isPaused(chat.id)} busy={this.acpQueue.isBusy(chat)}
            onRemove={id => this.acpQueue.discard(chat.id, id)}
            onSendNow={id => this.acpQueue.sendNow(chat, id)}
            onEdit={id => {
                const message = this.acpQueue.remove(chat.id, id);
                // Back in the input, its images are the input's again.
                message?.images.forEach((image, shortId) => this.pendingImageDisposables.set(shortId, image));
                if (message && this.editorRef) {
                    this.editorRef.document.textEditorModel.setValue(message.request.text);
                    this.editorRef.focus();
                }
            }} />;
    }

    protected renderSessionBar(): React.ReactNode {
        const chat = this._chatModel as MutableChatModel | undefined;
        const agentName = this.receivingAgent?.agentId;
        const state = chat && this.acpStates.of(chat.id);
        if (!chat || !state || !agentName || state.agentName !== agentName) {
            return undefined;
        }
        return <AcpSessionBar agentName={agentName} state={state} changing={this.acpChanging.get(chat.id)}
            onChange={(configId, value) => this.changeSetting(chat, agentName, configId, value)} />;
    }

    protected async changeSetting(chat: MutableChatModel, agentName: string, configId: string, value: string | boolean): Promise<void> {
        this.acpChanging.set(chat.id, configId);
        this.update();
        try {
            await this.acpSettings.set(chat, agentName, configId, value);
        } catch (error) {
            this.acpMessages.error(nls.localize('theia-cli-companion/acp-chat/settingFailed', '{0} did not change {1}: {2}', agentName, configId,
                error instanceof Error ? error.message : String(error)));
        } finally {
            this.acpChanging.delete(chat.id);
            this.update();
        }
    }
}
