import type * as acp from '@agentclientprotocol/sdk';
import { ChatAgent, ChatAgentLocation, ChatMode, ErrorChatResponseContentImpl, MarkdownChatResponseContentImpl, MutableChatRequestModel } from '@theia/ai-chat';
import { LanguageModelRequirement, PromptVariantSet } from '@theia/ai-core';
import { nls } from '@theia/core/lib/common/nls';
import type { AcpAgentDefinition } from '@theia-cli-companion/acp-client/lib/common/acp-agent-definition';
import type { DiffReviewService } from '@theia-cli-companion/ai-cli-ide-companion/lib/browser/diff-review/diff-review-service';
import { AcpChatBackend, AcpSessionInfo, AcpStartFailure } from '../common/acp-chat-protocol';
import { AcpChatClientImpl } from './acp-chat-client-impl';
import { AcpChatTurn } from './acp-chat-turn';

/** The ACP session id stored with a chat, so reopening the chat can load it. */
export const ACP_SESSION_SETTING = 'acpSessionId';

export interface AcpChatAgentServices {
    readonly backend: AcpChatBackend;
    readonly client: AcpChatClientImpl;
    readonly diffs: DiffReviewService;
    /** The folder the agent works in and every workspace folder; undefined when no folder is open. */
    readonly workspace: () => Promise<{ cwd: string; roots: string[] } | undefined>;
    readonly onCommands: (agent: AcpChatAgent, commands: acp.AvailableCommand[]) => void;
}

/**
 * An ACP agent as a Theia chat agent: each chat session gets one ACP session (the agent process
 * starts on the first prompt), prompts stream back as the turn renders them, and the chat's Stop
 * cancels the turn.
 */
export class AcpChatAgent implements ChatAgent {
    readonly id: string;
    readonly name: string;
    readonly description: string;
    readonly iconClass = 'codicon codicon-terminal';
    readonly locations = [ChatAgentLocation.Panel];
    readonly tags = ['ACP'];
    readonly variables: string[] = [];
    readonly prompts: PromptVariantSet[] = [];
    readonly languageModelRequirements: LanguageModelRequirement[] = [];
    readonly agentSpecificVariables = [];
    readonly functions: string[] = [];
    protected readonly sessions = new Map<string, AcpSessionInfo>();
    /** The modes the agent offered in its last session; the chat shows them once known. */
    modes?: ChatMode[];

    constructor(readonly definition: AcpAgentDefinition, protected readonly services: AcpChatAgentServices) {
        this.id = definition.name;
        this.name = definition.name;
        this.description = definition.description ?? nls.localize('theia-cli-companion/acp-chat/agentDescription', 'ACP agent: {0} {1}', definition.command, definition.args.join(' '));
    }

    async invoke(request: MutableChatRequestModel): Promise<void> {
        const chatId = request.session.id;
        const response = request.response;
        const turn = new AcpChatTurn(request, this.name, this.services.diffs, commands => this.services.onCommands(this, commands), modeId => this.rememberMode(chatId, modeId));
        const { backend, client } = this.services;
        client.attach(chatId, turn);
        const cancel = response.cancellationToken.onCancellationRequested(() => backend.cancel(chatId).catch(() => undefined));
        try {
            const exitedEarlier = client.exitsWhileIdle.get(chatId);
            if (exitedEarlier) {
                client.exitsWhileIdle.delete(chatId);
                this.sessions.delete(chatId);
                turn.onUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `*${exitedEarlier}; restarting it.*\n\n` } });
            }
            const session = await this.ensureSession(request);
            if (!session) {
                return;
            }
            await this.applyMode(chatId, session, request.request.modeId);
            const result = await backend.prompt(chatId, [{ type: 'text', text: promptText(request.request.text, this.name) }]);
            if (!result.ok) {
                if (turn.exitMessage) {
                    this.sessions.delete(chatId);
                }
                this.fail(request, turn.exitMessage ? `${turn.exitMessage}\n\n${nls.localize('theia-cli-companion/acp-chat/restartHint', 'The next message restarts the agent.')}` : result.message);
                return;
            }
            if (result.stopReason === 'cancelled' || response.cancellationToken.isCancellationRequested) {
                response.cancel();
                return;
            }
            if (result.stopReason !== 'end_turn') {
                response.response.addContent(new MarkdownChatResponseContentImpl(`\n\n*${nls.localize('theia-cli-companion/acp-chat/stopReason', 'The agent stopped: {0}', result.stopReason)}*`));
            }
            response.complete();
        } catch (error) {
            this.fail(request, String((error as Error)?.message ?? error));
        } finally {
            cancel.dispose();
            turn.dispose();
            client.detach(chatId, turn);
        }
    }

    protected fail(request: MutableChatRequestModel, message: string): void {
        const error = new Error(message);
        request.response.response.addContent(new ErrorChatResponseContentImpl(error));
        request.response.error(error);
    }

    /** The chat's ACP session, started (or loaded, for a reopened chat) on first use. */
    protected async ensureSession(request: MutableChatRequestModel): Promise<AcpSessionInfo | undefined> {
        const chatId = request.session.id;
        const known = this.sessions.get(chatId);
        if (known) {
            return known;
        }
        const workspace = await this.services.workspace();
        if (!workspace) {
            this.fail(request, nls.localize('theia-cli-companion/acp-chat/noFolder', 'Open a folder first: {0} works in a workspace folder.', this.name));
            return undefined;
        }
        const stored = request.session.settings?.[ACP_SESSION_SETTING];
        const result = await this.services.backend.startSession({
            chatSessionId: chatId, agent: this.definition, cwd: workspace.cwd, roots: workspace.roots,
            loadSessionId: typeof stored === 'string' ? stored : undefined
        });
        if (!result.ok) {
            this.fail(request, this.describeFailure(result.failure));
            return undefined;
        }
        this.sessions.set(chatId, result.session);
        request.session.setSettings({ ...request.session.settings, [ACP_SESSION_SETTING]: result.session.sessionId });
        this.modes = result.session.modes?.availableModes.map(mode => ({ id: mode.id, name: mode.name, isDefault: mode.id === result.session.modes?.currentModeId }));
        return result.session;
    }

    protected describeFailure(failure: AcpStartFailure): string {
        switch (failure.kind) {
            case 'not-installed':
                return failure.installCommand
                    ? nls.localize('theia-cli-companion/acp-chat/notInstalledWithHint', '{0} is not installed ("{1}" was not found). Install it with: {2}', this.name, failure.command, failure.installCommand)
                    : nls.localize('theia-cli-companion/acp-chat/notInstalled', '{0} is not installed ("{1}" was not found).', this.name, failure.command);
            case 'auth-required':
                return nls.localize('theia-cli-companion/acp-chat/authRequired', '{0} needs credentials: {1}. It offers: {2}.', this.name, failure.message,
                    failure.methods.map(method => method.name).join(', '));
            default:
                return nls.localize('theia-cli-companion/acp-chat/startFailed', '{0} could not start a session: {1}', this.name, failure.message);
        }
    }

    protected async applyMode(chatId: string, session: AcpSessionInfo, modeId: string | undefined): Promise<void> {
        const current = session.modes?.currentModeId;
        if (modeId && current && modeId !== current && session.modes?.availableModes.some(mode => mode.id === modeId)) {
            await this.services.backend.setMode(chatId, modeId);
            this.rememberMode(chatId, modeId);
        }
    }

    protected rememberMode(chatId: string, modeId: string): void {
        const session = this.sessions.get(chatId);
        if (session?.modes) {
            this.sessions.set(chatId, { ...session, modes: { ...session.modes, currentModeId: modeId } });
        }
    }
}

/** The prompt without the leading @mention the chat keeps in the text. */
export function promptText(text: string, agentName: string): string {
    return text.replace(new RegExp(`^\\s*@${agentName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b\\s*`, 'i'), '');
}
