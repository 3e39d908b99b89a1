import { ChatAgent, ChatAgentLocation, ChatMode, ErrorChatResponseContentImpl, MutableChatRequestModel } from '@theia/ai-chat';
import type { KeyStoreService } from '@theia/core/lib/common/key-store';
import type { QuickInputService } from '@theia/core/lib/common/quick-pick-service';
import { LanguageModelRequirement, PromptVariantSet } from '@theia/ai-core';
import { nls } from '@theia/core/lib/common/nls';
import { AcpAgentDefinition, isRecord, ownField } from '@theia-cli-companion/acp-client/lib/common';
import type { DiffReviewService } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { AcpChatBackend, AcpPromptResult, AcpSessionInfo, AcpStartResult } from '../common/acp-chat-protocol';
import { describeStartFailure } from './describe-start-failure';
import { describeAttachments } from './describe-attachments';
import type { SharedMcpServer } from '../common/theia-mcp-servers';
import { AcpAgentSignIn } from './acp-agent-sign-in';
import { AcpChatClientImpl } from './acp-chat-client-impl';
import { AcpChatTurn } from './acp-chat-turn';
import { AgentMarkdownContent } from './agent-markdown/agent-markdown-content';
import type { AcpTurnChanges } from './checkpoints/acp-turn-changes';
import { AcpPromptAttachments } from './prompt/acp-prompt-attachments';
import { promptBlocks } from './prompt/acp-prompt-blocks';

/** The ACP session id stored with a chat by earlier versions (one agent per chat), read for chats kept then. */
export const ACP_SESSION_SETTING = 'acpSessionId';
/** The ACP session id of each agent of a chat (by agent name), stored with the chat so reopening it can load them. */
export const ACP_SESSION_IDS_SETTING = 'acpSessionIds';
/** The sessions a chat took from the agent's own list (by agent name): the agent's, so deleting the chat only closes them. */
export const ACP_ADOPTED_SESSIONS_SETTING = 'acpAdoptedSessions';

export interface AcpChatAgentServices {
    readonly backend: AcpChatBackend;
    readonly keyStore: KeyStoreService;
    readonly quickInput: QuickInputService;
    readonly client: AcpChatClientImpl;
    readonly diffs: DiffReviewService;
    readonly attachments: AcpPromptAttachments;
    /** Lists the files each turn changed, with its checkpoint's restore. */
    readonly turnChanges: Pick<AcpTurnChanges, 'record'>;
    /** The folder the agent works in and every workspace folder; undefined when no folder is open. */
    readonly workspace: () => Promise<{ cwd: string; roots: string[]; snapshotInclude: string[] } | undefined>;
    /** The user's MCP servers this agent may have (Theia AI's, user settings only). */
    readonly mcpServers: (agentName: string) => SharedMcpServer[];
    /** Whether the agent may start in this workspace (asks the user to trust it when it is not trusted). */
    readonly mayStart: (agentName: string) => Promise<boolean>;
    /** A session started: the chat's settings are set again on it; resolves with what could not be, to say in the chat. */
    readonly sessionStarted: (request: MutableChatRequestModel, session: AcpSessionInfo, agentName: string) => Promise<string[]>;
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
    /** A terminal; an agent from the ACP Registry shows the registry's icon. */
    iconClass = 'codicon codicon-terminal';
    readonly locations = [ChatAgentLocation.Panel];
    readonly tags = ['ACP'];
    readonly variables: string[] = [];
    readonly prompts: PromptVariantSet[] = [];
    readonly languageModelRequirements: LanguageModelRequirement[] = [];
    readonly agentSpecificVariables = [];
    readonly functions: string[] = [];
    protected readonly sessions = new Map<string, AcpSessionInfo>();
    /** Chats whose session this agent's list gave them (see ACP_ADOPTED_SESSIONS_SETTING). */
    protected readonly adopted = new Set<string>();
    /** By chat: what the agent must hear before the user's next message (see AcpChatTurn.notesForAgent). */
    protected readonly notesForAgent = new Map<string, string[]>();
    protected readonly omittedOutputs = new Map<string, Map<string, string>>();
    /** What the chat input's mode selector said at each chat's previous request. */
    protected readonly selectedModes = new Map<string, string | undefined>();
    /** The modes the agent offered in its last session; the chat shows them once known. */
    modes?: ChatMode[];
    protected readonly signIn: AcpAgentSignIn;

    constructor(readonly definition: AcpAgentDefinition, protected readonly services: AcpChatAgentServices) {
        this.signIn = new AcpAgentSignIn(definition, services);
        this.id = definition.name;
        this.name = definition.name;
        this.description = definition.description ?? nls.localize('theia-cli-companion/acp-chat/agentDescription',
            'ACP agent: {0} {1}', definition.command, definition.args.join(' '));
    }

    async invoke(request: MutableChatRequestModel): Promise<void> {
        const chatId = request.session.id;
        const response = request.response;
        const turn = this.openTurn(request);
        const cancel = response.cancellationToken.onCancellationRequested(() => this.services.backend.cancel(chatId).catch(() => undefined));
        try {
            turn.roots = (await this.services.workspace())?.roots ?? [];
            this.restartIfExited(chatId, turn);
            turn.openingSession = true;
            const session = await this.ensureSession(request).finally(() => turn.openingSession = false);
            if (!session) {
                return;
            }
            await this.applyMode(chatId, session, request.request.modeId);
            const result = await this.sendPrompt(request, session, turn);
            // Also after a failed or cancelled turn: whatever it wrote can be restored.
            await this.recordTurn(request, turn);
            this.finishTurn(request, turn, result);
        } catch (error) {
            this.fail(request, String((error as Error)?.message ?? error));
        } finally {
            if (turn.notesForAgent.length) {
                this.notesForAgent.set(chatId, [...this.notesForAgent.get(chatId) ?? [], ...turn.notesForAgent]);
            }
            cancel.dispose();
            turn.dispose();
            this.services.client.detach(chatId, turn);
        }
    }

    /** The request's turn, which the client hands the agent's updates and requests for the chat from now on. */
    protected openTurn(request: MutableChatRequestModel): AcpChatTurn {
        const chatId = request.session.id;
        const { backend, client } = this.services;
        const turn = new AcpChatTurn(request, this.name, this.services.diffs, modeId => this.rememberMode(chatId, modeId), {
            read: filePath => backend.readForReview(chatId, filePath),
            replaceWritten: (filePath, expected, reviewed) => backend.replaceWritten(chatId, filePath, expected, reviewed)
        });
        turn.omittedOutputs = this.omittedOutputsOf(chatId);
        turn.usageBefore = client.sessionState(chatId).usage;
        client.attach(chatId, turn, this.name);
        return turn;
    }

    /** An agent that exited since the chat's last turn is started afresh, and the chat says so. */
    protected restartIfExited(chatId: string, turn: AcpChatTurn): void {
        const { client } = this.services;
        // An exit the backend reported is of the agent the chat talked to then: this one's, if it still does.
        const exitedEarlier = client.chatAgents.get(chatId) === this.name ? client.exitsWhileIdle.get(chatId) : undefined;
        if (exitedEarlier) {
            client.exitsWhileIdle.delete(chatId);
            this.sessions.delete(chatId);
            turn.onUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `*${exitedEarlier}; restarting it.*\n\n` } });
        }
    }

    /** Sends the message, its attachments and what the agent must hear first; resolves when the turn ends. */
    protected async sendPrompt(request: MutableChatRequestModel, session: AcpSessionInfo, turn: AcpChatTurn): Promise<AcpPromptResult> {
        const chatId = request.session.id;
        const notes = this.notesForAgent.get(chatId) ?? [];
        this.notesForAgent.delete(chatId);
        const attachments = await this.services.attachments.of(request);
        const { blocks, outcomes } = promptBlocks(messageText(request), attachments, session.promptCapabilities, this.name);
        if (outcomes.length) {
            request.response.response.addContent(new AgentMarkdownContent(`*${describeAttachments(this.name, outcomes)}*\n\n`, turn.roots));
        }
        return this.services.backend.prompt(chatId, [
            ...notes.map(text => ({ type: 'text' as const, text })),
            ...(blocks.length ? blocks : [{ type: 'text' as const, text: '' }])
        ], request.id, this.name);
    }

    /** Lists the files the turn changed, with its checkpoint's restore, once its reviews settled. */
    protected async recordTurn(request: MutableChatRequestModel, turn: AcpChatTurn): Promise<void> {
        await turn.settled();
        const checkpoint = await this.services.backend.endTurn(request.session.id, request.id).catch(() => undefined);
        if (checkpoint) {
            this.services.turnChanges.record(request, checkpoint, this.name);
        }
    }

    /** Ends the chat's response as the turn ended: failed (the agent's exit restarts it next time), cancelled, stopped early or complete. */
    protected finishTurn(request: MutableChatRequestModel, turn: AcpChatTurn, result: AcpPromptResult): void {
        const response = request.response;
        if (!result.ok) {
            if (turn.exitMessage) {
                this.sessions.delete(request.session.id);
            }
            this.fail(request, turn.exitMessage
                ? `${turn.exitMessage}\n\n${nls.localize('theia-cli-companion/acp-chat/restartHint', 'The next message restarts the agent.')}`
                : result.message);
            return;
        }
        if (result.stopReason === 'cancelled' || response.cancellationToken.isCancellationRequested) {
            response.cancel();
            return;
        }
        if (result.stopReason !== 'end_turn') {
            response.response.addContent(new AgentMarkdownContent(`\n\n*${nls.localize('theia-cli-companion/acp-chat/stopReason',
                'The agent stopped: {0}', result.stopReason)}*`, turn.roots));
        }
        const usage = turn.usageNote();
        if (usage) {
            response.response.addContent(usage);
        }
        response.complete();
    }

    protected fail(request: MutableChatRequestModel, message: string): void {
        const error = new Error(message);
        request.response.response.addContent(new ErrorChatResponseContentImpl(error));
        request.response.error(error);
    }

    /**
     * The chat's ACP session, started (or loaded, for a reopened chat) on first use. A chat that talked to
     * another agent changes to this one in the backend (a message reaches the agent it names): its earlier
     * session of this chat is resumed, or a session of its own started, and the chat says so.
     */
    protected async ensureSession(request: MutableChatRequestModel): Promise<AcpSessionInfo | undefined> {
        const chatId = request.session.id;
        const known = this.sessions.get(chatId);
        if (known && this.services.client.chatAgents.get(chatId) === this.name) {
            return known;
        }
        const workspace = await this.services.workspace();
        if (!workspace) {
            this.fail(request, nls.localize('theia-cli-companion/acp-chat/noFolder', 'Open a folder first: {0} works in a workspace folder.', this.name));
            return undefined;
        }
        if (!await this.services.mayStart(this.name)) {
            this.fail(request, nls.localize('theia-cli-companion/acp-chat/untrusted',
                '{0} was not started: this workspace is not trusted. Trust it (Manage Workspace Trust) and send your message again.', this.name));
            return undefined;
        }
        const stored = this.storedSessionId(request);
        const start = () => {
            // From here on the backend's calls for this chat are this agent's, whether the start succeeds or not.
            this.services.client.chatAgents.set(chatId, this.name);
            return this.services.backend.startSession({
                chatSessionId: chatId, agent: this.definition, cwd: workspace.cwd, roots: workspace.roots,
                loadSessionId: stored,
                mcpServers: this.services.mcpServers(this.name),
                snapshotInclude: workspace.snapshotInclude
            });
        };
        let result: AcpStartResult = await start();
        if (!result.ok && result.failure.kind === 'auth-required' && await this.signIn.authenticate(request, result.failure)) {
            result = await start();
        }
        if (!result.ok) {
            this.fail(request, describeStartFailure(this.name, result.failure));
            return undefined;
        }
        this.sessions.set(chatId, result.session);
        this.noteAdopted(request, result.session);
        if (!result.session.resumed) {
            // A new session starts in the agent's own mode: the selector's choice applies to it afresh.
            this.selectedModes.delete(chatId);
        }
        this.noteAgentChange(request, result.session, workspace.roots);
        this.noteLeftOut(request, result.session, workspace.roots);
        if (result.session.loadFailure) {
            request.response.response.addContent(new AgentMarkdownContent(`*${nls.localize('theia-cli-companion/acp-chat/loadFailed',
                '{0} could not reopen this chat\'s earlier session ({1}); this message starts a new one.', this.name, result.session.loadFailure)}*\n\n`, workspace.roots));
        }
        const ids = request.session.settings?.[ACP_SESSION_IDS_SETTING];
        request.session.setSettings({
            ...request.session.settings, [ACP_SESSION_IDS_SETTING]: { ...isRecord(ids) ? ids : {}, [this.name]: result.session.sessionId }
        });
        // An agent with a mode setting shows it with its other settings; Theia's mode selector is for those with only the older modes.
        const modes = result.session.configOptions?.some(option => option.category === 'mode') ? undefined : result.session.modes;
        this.modes = modes?.availableModes.map(mode => ({ id: this.selectorModeId(mode.id), name: mode.name, isDefault: mode.id === modes.currentModeId }));
        const problems = await this.services.sessionStarted(request, result.session, this.name);
        if (problems.length) {
            request.response.response.addContent(new AgentMarkdownContent(`*${problems.join(' ')}*\n\n`, workspace.roots));
        }
        return result.session;
    }

    /** The session id this agent had in the chat, stored with it; for a chat kept by an earlier version, its one id if this agent was its only one. */
    protected storedSessionId(request: MutableChatRequestModel): string | undefined {
        const settings = request.session.settings ?? {};
        const ids = settings[ACP_SESSION_IDS_SETTING];
        if (isRecord(ids)) {
            const id = ownField(ids, this.name);
            return typeof id === 'string' ? id : undefined;
        }
        const legacy = settings[ACP_SESSION_SETTING];
        const agents = new Set(request.session.getRequests().filter(earlier => earlier !== request).map(earlier => earlier.agentId));
        return typeof legacy === 'string' && agents.size === 1 && agents.has(this.id) ? legacy : undefined;
    }

    /** Says in the chat which of the user's MCP servers the agent could not take, and why. */
    protected noteLeftOut(request: MutableChatRequestModel, session: AcpSessionInfo, roots: readonly string[]): void {
        const leftOut = session.mcpServers?.leftOut ?? [];
        if (leftOut.length) {
            request.response.response.addContent(new AgentMarkdownContent(`*${nls.localize('theia-cli-companion/acp-chat/mcpLeftOut',
                'Not given to {0}: {1}.', this.name, leftOut.map(({ name, reason }) => `MCP server ${name} (${reason})`).join('; '))}*\n\n`, roots));
        }
    }

    /** Remembers whether the chat's session came from the agent's own list: deleting the chat then only closes it. */
    protected noteAdopted(request: MutableChatRequestModel, session: AcpSessionInfo): void {
        const adopted = request.session.settings?.[ACP_ADOPTED_SESSIONS_SETTING];
        if (ownField(adopted, this.name) === session.sessionId) {
            this.adopted.add(request.session.id);
        }
    }

    /** Says in the chat that it changed agent: to a new session of this one, or back to its earlier one. */
    protected noteAgentChange(request: MutableChatRequestModel, session: AcpSessionInfo, roots: readonly string[]): void {
        const note = session.resumed
            ? nls.localize('theia-cli-companion/acp-chat/agentResumed', 'This chat talks to {0} again: its earlier session in this chat goes on.', this.name)
            : session.previousAgent !== undefined
                ? nls.localize('theia-cli-companion/acp-chat/agentChanged',
                    'This chat now talks to {0}, in a session of its own; {1} keeps its session: mention @{1} to go back to it.', this.name, session.previousAgent)
                : undefined;
        if (note) {
            request.response.response.addContent(new AgentMarkdownContent(`*${note}*\n\n`, roots));
        }
    }

    /**
     * The id the chat input's mode selector gets for one of this agent's modes. Agents share mode ids
     * (Claude Code's and Qwen Code's both have `auto`), and the selector can still hold the last agent's
     * choice when a message names another one: qualified, another agent's choice never switches this one.
     */
    protected selectorModeId(modeId: string): string {
        return `${this.id}/${modeId}`;
    }

    /** The agent's own mode id of a selector choice; undefined for no choice or another agent's. */
    protected ownModeId(selectorModeId: string | undefined): string | undefined {
        const prefix = `${this.id}/`;
        return selectorModeId?.startsWith(prefix) ? selectorModeId.slice(prefix.length) : undefined;
    }

    /**
     * Switches to the mode the chat input's selector names, when the user chose it there: the selector
     * does not follow *Set Agent Mode…* or the agent's own switches, so an unchanged selector must not
     * undo them (it would silently put an auto-edit session back into asking, or the reverse).
     */
    protected async applyMode(chatId: string, session: AcpSessionInfo, selectorModeId: string | undefined): Promise<void> {
        const modeId = this.ownModeId(selectorModeId);
        const chosenBefore = this.selectedModes.has(chatId);
        const previous = this.selectedModes.get(chatId);
        this.selectedModes.set(chatId, modeId);
        const current = session.modes?.currentModeId;
        const chosenNow = !chosenBefore || modeId !== previous;
        if (chosenNow && modeId && current && modeId !== current && session.modes?.availableModes.some(mode => mode.id === modeId)) {
            await this.setMode(chatId, modeId);
        }
    }

    /** The chat's tool calls whose output is shown cut (id → title); the whole text is the backend's. */
    omittedOutputsOf(chatId: string): Map<string, string> {
        let omitted = this.omittedOutputs.get(chatId);
        if (!omitted) {
            omitted = new Map();
            this.omittedOutputs.set(chatId, omitted);
        }
        return omitted;
    }

    /** The ACP session of this chat, once started. */
    sessionOf(chatId: string): AcpSessionInfo | undefined {
        return this.sessions.get(chatId);
    }

    async setMode(chatId: string, modeId: string): Promise<void> {
        await this.services.backend.setMode(chatId, modeId);
        this.rememberMode(chatId, modeId);
    }

    async setModel(chatId: string, modelId: string): Promise<void> {
        await this.services.backend.setModel(chatId, modelId);
        const session = this.sessions.get(chatId);
        if (session?.models) {
            this.sessions.set(chatId, { ...session, models: { ...session.models, currentModelId: modelId } });
        }
    }

    /** The chat was deleted: its agent stops; resolves with what became of its session in the agent (undefined: none ran). */
    forget(chatId: string): Promise<'deleted' | 'closed' | 'kept' | undefined> {
        if (this.services.client.chatAgents.get(chatId) === this.name) {
            this.services.client.chatAgents.delete(chatId);
        }
        this.selectedModes.delete(chatId);
        this.omittedOutputs.delete(chatId);
        const mayDelete = !this.adopted.delete(chatId);
        return this.sessions.delete(chatId) ? this.services.backend.closeSession(chatId, mayDelete).catch(() => undefined) : Promise.resolve(undefined);
    }

    protected rememberMode(chatId: string, modeId: string): void {
        const session = this.sessions.get(chatId);
        if (session?.modes) {
            this.sessions.set(chatId, { ...session, modes: { ...session.modes, currentModeId: modeId } });
        }
    }
}

/**
 * The message as the agent reads it: the @mention of the agent left out, variables as Theia resolved
 * them (`#file:src/a.ts` becomes the file's path; its content goes along as an attachment).
 */
export function messageText(request: MutableChatRequestModel): string {
    return request.message.parts.filter(part => part.kind !== 'agent').map(part => part.promptText).join('').trim();
}
