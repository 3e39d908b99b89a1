import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { z } from 'zod';
import { ILogger } from '@theia/core/lib/common/logger';
import { AcpAgentNotFoundError } from '@theia-cli-companion/acp-client/lib/node';
import { toolOutputText } from '@theia-cli-companion/acp-client/lib/common';
import { mcpServersForAgent } from '../common/theia-mcp-servers';
import { CheckpointRetention, CheckpointRetentionSchema } from '../common/checkpoint-retention';
import { AcpAgentLauncher } from './acp-agent-launcher';
import {
    checkedConfigOption, CurrentRootsSchema, realRoots, FilePathSchema, RestoreOptionsSchema, SharedMcpServersSchema, TurnIdSchema
} from './acp-chat-backend-input';
import { ChatBinding } from './acp-chat-binding';
import { describeSession } from './describe-session';
import { AcpFileSystemHost, AcpFileWindow } from './acp-file-system-host';
import { AcpTerminalHost } from './acp-terminal-host';
import { AcpTurnCheckpoints } from './acp-turn-checkpoints';
import { messageOf } from './message-of';
import { AgentWorkRegistry, WindowAgentCredentials } from '@theia-cli-companion/ai-cli-core/lib/node';
import { SnapshotIncludeSchema } from '@theia-cli-companion/ai-cli-core/lib/common';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { timingMark } from '@theia-cli-companion/cli-process/lib/node';
import {
    AcpAgentSessionPage, AcpChatBackend, AcpChatClient, AcpPromptResult, AcpRestoreResult, AcpStartResult, AcpTurnCheckpoint, StartAcpSessionRequest
} from '../common/acp-chat-protocol';
import type { AcpAgentDefinition } from '@theia-cli-companion/acp-client/lib/common';
import { endSession, listAgentSessions, reopenSession } from './acp-agent-sessions';
import { ideServerFor } from './ide-server-for';

/** How the window's server is named to the agent: Gemini CLI shows its tools to the model as `mcp_theia_<tool>`. */
export { IDE_MCP_SERVER_NAME } from '../common/theia-mcp-servers';

/** JSON-RPC error codes: -32000 is what agents (Gemini CLI, the ACP SDK's authRequired) send when credentials are missing. */
const AUTH_REQUIRED = -32000;
const CLIENT_INFO = { name: 'theia-ai-acp-chat', title: 'Eclipse Theia', version: '0.1.0' };

/**
 * The ACP agents of one window's chat sessions, one agent process per (chat, agent): their sessions'
 * lifecycle (start, load, change of agent, prompts, close) and the turns' checkpoints. The agent is
 * started by {@link AcpAgentLauncher}; its file reads and writes are checked and done by
 * {@link AcpFileSystemHost}, its commands run by {@link AcpTerminalHost}; permissions are asked in the window.
 */
@injectable()
export class AcpChatBackendImpl implements AcpChatBackend {

    @inject(ILogger) @named('ai-acp-chat:AcpChatBackend') protected readonly logger: ILogger;
    @inject(AcpTerminalHost) protected readonly terminals: AcpTerminalHost;
    @inject(AcpFileSystemHost) protected readonly files: AcpFileSystemHost;
    @inject(AcpAgentLauncher) protected readonly launcher: AcpAgentLauncher;
    @inject(WindowAgentCredentials) protected readonly windowCredentials: WindowAgentCredentials;
    @inject(AcpTurnCheckpoints) protected readonly checkpoints: AcpTurnCheckpoints;
    @inject(AgentWorkRegistry) protected readonly agentWork: AgentWorkRegistry;

    protected client?: AcpChatClient;
    /** The agent each chat talks to now; every call naming the chat goes to it. */
    protected readonly chats = new Map<string, ChatBinding>();
    /**
     * The agents a chat talked to before it changed agent, by chat and agent name: their sessions are kept
     * (their processes go on, idle) and resumed when the chat changes back. Nothing they send reaches the window.
     */
    protected readonly earlierAgents = new Map<string, Map<string, ChatBinding>>();

    setClient(client: AcpChatClient | undefined): void {
        this.client = client;
    }

    /** The window as the file-system host uses it: looked up on each call, so a window not connected fails the call that needs it. */
    protected readonly fileWindow: AcpFileWindow = {
        openEditorText: (chatSessionId, filePath) => this.window.openEditorText(chatSessionId, filePath),
        editedContentFor: (chatSessionId, request) => this.window.editedContentFor(chatSessionId, request),
        didWriteTextFile: (chatSessionId, filePath) => this.window.didWriteTextFile(chatSessionId, filePath)
    };

    async startSession(request: StartAcpSessionRequest): Promise<AcpStartResult> {
        if (!path.isAbsolute(request.cwd) || !request.roots.includes(request.cwd)) {
            return { ok: false, failure: { kind: 'failed', message: `The agent's folder must be one of the workspace folders, got ${request.cwd}` } };
        }
        const include = SnapshotIncludeSchema.safeParse(request.snapshotInclude ?? []);
        if (!include.success) {
            return { ok: false, failure: { kind: 'failed', message: `Invalid snapshot patterns: ${formatZodIssues(include.error, 'snapshotInclude')}` } };
        }
        // A chat that names another agent changes to it: the current one is kept aside, the named one's earlier session resumed.
        const { previousAgent, resumed } = this.changeAgent(request.chatSessionId, request.agent.name);
        const change = { ...(previousAgent !== undefined ? { previousAgent } : {}), ...(resumed ? { resumed } : {}) };
        let chat = this.chats.get(request.chatSessionId);
        if (chat?.session && !chat.agent.connection.hasExited) {
            // The window asks again (its agents were re-created, say), or changes back: the running session is the chat's.
            return { ok: true, session: { ...describeSession(request.chatSessionId, chat, false), ...change } };
        }
        if (!chat || chat.agent.connection.hasExited) {
            // Paths are checked with symlinks resolved, so the roots must be too (a home under a symlink).
            chat = this.launch({ ...request, roots: await realRoots(request.roots) });
        }
        chat.snapshotInclude = include.data;
        try {
            if (!chat.agent.initializeResponse) {
                await chat.agent.initialize(CLIENT_INFO);
            }
            const { loaded, how, loadFailure } = await this.openSession(request, chat);
            this.logger.info(`Chat ${request.chatSessionId}: ${request.agent.name} session ${chat.session!.sessionId} ${how} in ${request.cwd}`);
            this.checkpoints.warmUp(chat.roots, chat.snapshotInclude);
            return { ok: true, session: { ...describeSession(request.chatSessionId, chat, loaded), ...(loadFailure ? { loadFailure } : {}), ...change } };
        } catch (error) {
            if (error instanceof AcpAgentNotFoundError) {
                this.chats.delete(request.chatSessionId);
                return { ok: false, failure: { kind: 'not-installed', command: error.command, installCommand: request.agent.installCommand } };
            }
            const code = (error as { code?: unknown }).code;
            const message = messageOf(error);
            if (code === AUTH_REQUIRED && chat.agent.initializeResponse?.authMethods?.length) {
                return { ok: false, failure: { kind: 'auth-required', message, methods: chat.agent.initializeResponse.authMethods } };
            }
            this.logger.warn(`Chat ${request.chatSessionId}: ${request.agent.name} could not start a session: ${message}`);
            return { ok: false, failure: { kind: 'failed', message } };
        }
    }

    /**
     * Opens the chat's session on its initialized agent, with the window's companion server and the user's MCP servers
     * the agent can use: the stored session when the window names one and the agent can load it, else a new one.
     */
    protected async openSession(request: StartAcpSessionRequest, chat: ChatBinding): Promise<{ loaded: boolean; how: string; loadFailure?: string }> {
        const shared = mcpServersForAgent(SharedMcpServersSchema.parse(request.mcpServers ?? []),
            chat.agent.initializeResponse?.agentCapabilities?.mcpCapabilities);
        shared.leftOut.forEach(({ name, reason }) => this.logger.info(`Chat ${request.chatSessionId}: MCP server ${name} not offered to ${request.agent.name}: ${reason}`));
        chat.sharedMcpServers = { offered: shared.servers.map(server => server.name), leftOut: shared.leftOut };
        const mcpServers = [...ideServerFor(request.agent.name, chat, this.windowCredentials), ...shared.servers];
        let loadFailure: string | undefined;
        let how = 'started';
        if (request.loadSessionId) {
            try {
                const reopened = await reopenSession(chat.agent, { sessionId: request.loadSessionId, cwd: request.cwd, mcpServers });
                chat.session = reopened?.session;
                how = reopened?.how ?? how;
            } catch (error) {
                // A chat that cannot be reopened still gets an agent: a new session, and the reason.
                loadFailure = messageOf(error);
                this.logger.warn(`Chat ${request.chatSessionId}: ${request.agent.name} could not reopen session ${request.loadSessionId}: ${loadFailure}`);
            }
        }
        const loaded = !!chat.session;
        if (!loaded) {
            chat.session = await chat.agent.newSession({ cwd: request.cwd, mcpServers });
        }
        return { loaded, how, loadFailure };
    }

    /**
     * Makes `agentName` the agent of the chat. The chat's current agent, when another, is kept aside (a turn
     * it still runs is cancelled); the named agent's earlier binding of this chat, if it still runs, is taken back.
     */
    protected changeAgent(chatSessionId: string, agentName: string): { previousAgent?: string; resumed: boolean } {
        const current = this.chats.get(chatSessionId);
        if (current?.agentName === agentName) {
            return { resumed: false };
        }
        const earlier = this.earlierAgents.get(chatSessionId) ?? new Map<string, ChatBinding>();
        this.earlierAgents.set(chatSessionId, earlier);
        if (current) {
            this.chats.delete(chatSessionId);
            if (!current.agent.connection.hasExited) {
                earlier.set(current.agentName, current);
                if (current.promptsRunning) {
                    current.session?.cancel().catch(error => this.logger.warn(`Chat ${chatSessionId}: could not cancel ${current.agentName}'s turn: ${messageOf(error)}`));
                }
            }
        }
        const resumed = earlier.get(agentName);
        earlier.delete(agentName);
        if (resumed && !resumed.agent.connection.hasExited) {
            this.chats.set(chatSessionId, resumed);
        }
        if (current || resumed) {
            this.logger.info(`Chat ${chatSessionId}: now talks to ${agentName}${current ? ` (was ${current.agentName})` : ''}${resumed ? ', its earlier session resumed' : ''}`);
        }
        return { previousAgent: current?.agentName, resumed: !!resumed && !resumed.agent.connection.hasExited };
    }

    /** Whether the binding is the one its chat talks to now (not kept aside, not replaced). */
    protected isCurrent(chatSessionId: string, chat: ChatBinding | undefined): boolean {
        return !!chat && this.chats.get(chatSessionId) === chat;
    }

    /** Refuses what an agent the chat no longer talks to asks of the workspace. */
    protected checkCurrent(chatSessionId: string, chat: ChatBinding | undefined): void {
        if (!this.isCurrent(chatSessionId, chat)) {
            const now = this.chats.get(chatSessionId)?.agentName;
            throw new Error(`This chat now talks to ${now ?? 'another agent'}, not ${chat?.agentName ?? 'this agent'}; the request was refused`);
        }
    }

    protected launch(request: StartAcpSessionRequest): ChatBinding {
        const chatSessionId = request.chatSessionId;
        // Set below; the agent's requests are answered only once it is up. An agent the chat no longer talks to reaches nothing of the window.
        let chat: ChatBinding | undefined;
        const agent = this.launcher.launch(request, {
            client: () => this.client,
            files: this.fileWindow,
            isCurrent: () => this.isCurrent(chatSessionId, chat),
            checkCurrent: () => this.checkCurrent(chatSessionId, chat)
        });
        const binding: ChatBinding = chat = { agentName: request.agent.name, agent, roots: request.roots, snapshotInclude: [], promptsRunning: 0 };
        this.chats.set(chatSessionId, binding);
        agent.onExit(exit => {
            binding.credential?.revoke().catch(() => undefined);
            const earlier = this.earlierAgents.get(chatSessionId);
            if (earlier?.get(binding.agentName) === binding) {
                // Kept aside: the chat does not hear of it; changing back starts it again (its session loaded).
                earlier.delete(binding.agentName);
                this.logger.info(`Chat ${chatSessionId}: ${binding.agentName}, kept aside, ended: ${agent.connection.describeExit()}`);
            } else if (!exit.expected && this.isCurrent(chatSessionId, binding)) {
                const message = agent.connection.describeExit();
                this.logger.warn(`Chat ${chatSessionId}: ${message}`);
                this.client?.onAgentExit(chatSessionId, message);
            }
        });
        return binding;
    }

    protected get window(): AcpChatClient {
        if (!this.client) {
            throw new Error('The window of this chat is not connected');
        }
        return this.client;
    }

    async toolOutput(chatSessionId: string, toolCallId: string): Promise<string | undefined> {
        const id = z.string().max(1000).parse(toolCallId);
        // The chat's current agent first, then those it talked to before: an earlier turn's output stays at hand.
        const bindings = [this.chats.get(chatSessionId), ...this.earlierAgents.get(chatSessionId)?.values() ?? []];
        const call = bindings.map(chat => chat?.session?.toolCalls.get(id)).find(found => found !== undefined);
        return call && toolOutputText(call);
    }

    async readForReview(chatSessionId: string, filePath: string): Promise<string | undefined> {
        return this.files.readForReview(chatSessionId, FilePathSchema.parse(filePath), this.rootsOf(chatSessionId));
    }

    async landingInWorkspace(chatSessionId: string, filePath: string): Promise<string | undefined> {
        return this.files.landingInWorkspace(FilePathSchema.parse(filePath), this.rootsOf(chatSessionId));
    }

    async replaceWritten(chatSessionId: string, filePath: string, expected: string, reviewed: string): Promise<boolean> {
        const file = FilePathSchema.parse(filePath);
        const [was, text] = [z.string().parse(expected), z.string().parse(reviewed)];
        return this.files.replaceWritten(chatSessionId, file, was, text, this.rootsOf(chatSessionId), this.fileWindow);
    }

    /** The workspace folders of the chat's current agent (none when no agent runs for it: every path is refused). */
    protected rootsOf(chatSessionId: string): readonly string[] {
        return this.chats.get(chatSessionId)?.roots ?? [];
    }

    async authenticate(chatSessionId: string, methodId: string, meta?: Record<string, unknown>): Promise<void> {
        const chat = this.require(chatSessionId);
        await chat.agent.authenticate({ methodId, _meta: meta });
        // Never log `meta`: it carries the key.
        this.logger.info(`Chat ${chatSessionId}: authenticated with ${methodId}`);
    }

    async prompt(chatSessionId: string, prompt: acp.ContentBlock[], turnId?: string, agentName?: string): Promise<AcpPromptResult> {
        timingMark('acp-turn:prompt-received');
        const chat = this.require(chatSessionId);
        const session = chat.session;
        if (!session) {
            return { ok: false, message: 'The chat has no agent session; start one first' };
        }
        if (agentName !== undefined && z.string().parse(agentName) !== chat.agentName) {
            // Never delivered to another agent than the one the message names.
            return { ok: false, message: `This chat now talks to ${chat.agentName}, not ${agentName}; send the message again to change to ${agentName}` };
        }
        const turn = turnId === undefined ? undefined : TurnIdSchema.parse(turnId);
        // The folders are snapshotted around the turn: whatever wrote the files (the agent itself, too), the turn can be undone.
        if (turn !== undefined) {
            await this.checkpoints.endRunning(chatSessionId);
            await this.checkpoints.begin(chatSessionId, turn, chat.roots, chat.snapshotInclude);
        }
        chat.promptsRunning++;
        // While the agent works on it, the workspace is kept awake (the platform would put it to sleep as idle).
        const working = this.agentWork.begin(`a chat turn with ${chat.agentName}`, chatSessionId);
        try {
            timingMark('acp-turn:prompt-to-agent');
            const response = await session.prompt(prompt);
            return { ok: true, stopReason: response.stopReason, meta: response._meta ?? undefined };
        } catch (error) {
            return { ok: false, message: messageOf(error) };
        } finally {
            working.dispose();
            chat.promptsRunning--;
        }
    }

    async endTurn(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined> {
        const turn = TurnIdSchema.parse(turnId);
        return this.checkpoints.end(z.string().parse(chatSessionId), turn).catch((error): AcpTurnCheckpoint => {
            this.logger.warn(`Chat ${chatSessionId}: the files turn ${turn} changed could not be recorded: ${messageOf(error)}`);
            // The chat says so in the turn: never "nothing changed".
            return { turnId: turn, changes: [], truncated: false, error: messageOf(error) };
        });
    }

    async turnCheckpoint(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined> {
        return this.checkpoints.checkpoint(z.string().parse(chatSessionId), TurnIdSchema.parse(turnId));
    }

    async turnFileContent(chatSessionId: string, turnId: string, filePath: string, side: 'before' | 'after'): Promise<string | undefined> {
        return this.checkpoints.content(z.string().parse(chatSessionId), TurnIdSchema.parse(turnId), FilePathSchema.parse(filePath), z.enum(['before', 'after']).parse(side));
    }

    async restoreTurn(
        chatSessionId: string, turnId: string, options: { files?: string[]; overwrite: string[]; skip: string[]; dirty?: string[]; roots: string[] }
    ): Promise<AcpRestoreResult> {
        const parsed = RestoreOptionsSchema.parse(options);
        // Judged with links resolved, as every other path of the chat.
        return this.checkpoints.restore(z.string().parse(chatSessionId), TurnIdSchema.parse(turnId), { ...parsed, roots: await realRoots(parsed.roots) });
    }

    async reapplyTurnFile(chatSessionId: string, turnId: string, filePath: string, force: boolean, roots: string[]): Promise<AcpRestoreResult> {
        return this.checkpoints.reapply(z.string().parse(chatSessionId), TurnIdSchema.parse(turnId), FilePathSchema.parse(filePath), z.boolean().parse(force),
            await realRoots(CurrentRootsSchema.parse(roots)));
    }

    async setCheckpointRetention(retention: CheckpointRetention): Promise<void> {
        const parsed = CheckpointRetentionSchema.safeParse(retention);
        if (!parsed.success) {
            throw new Error(`Invalid checkpoint retention: ${formatZodIssues(parsed.error, 'retention')}`);
        }
        this.checkpoints.setRetention(parsed.data);
    }

    async cancel(chatSessionId: string): Promise<void> {
        await this.chats.get(chatSessionId)?.session?.cancel();
    }

    async setMode(chatSessionId: string, modeId: string): Promise<void> {
        // Rethrown with the agent's details (Gemini: "Cannot enable privileged approval modes in an untrusted folder.").
        await this.require(chatSessionId).session?.setMode(modeId).catch(error => { throw new Error(messageOf(error)); });
        this.logger.info(`Chat ${chatSessionId}: mode ${modeId}`);
    }

    async setModel(chatSessionId: string, modelId: string): Promise<void> {
        await this.require(chatSessionId).session?.setModel(modelId).catch(error => { throw new Error(messageOf(error)); });
        this.logger.info(`Chat ${chatSessionId}: model ${modelId}`);
    }

    async setConfigOption(chatSessionId: string, configId: string, value: string | boolean): Promise<readonly acp.SessionConfigOption[]> {
        const checked = checkedConfigOption(configId, value);
        const session = this.require(chatSessionId).session;
        if (!session) {
            throw new Error(`Chat ${chatSessionId} has no agent session`);
        }
        await session.setConfigOption(checked.id, checked.value).catch(error => { throw new Error(messageOf(error)); });
        this.logger.info(`Chat ${chatSessionId}: ${checked.id} = ${JSON.stringify(checked.value)}`);
        return session.configOptions;
    }

    async closeSession(chatSessionId: string, mayDelete = true): Promise<'deleted' | 'closed' | 'kept' | undefined> {
        const current = this.chats.get(chatSessionId);
        const chats = [current, ...this.earlierAgents.get(chatSessionId)?.values() ?? []];
        const ended = current?.session && await endSession(current.agent, current.session, mayDelete)
            .catch(error => (this.logger.warn(`Chat ${chatSessionId}: ${current.agentName} could not end its session: ${messageOf(error)}`), 'kept' as const));
        await this.checkpoints.endRunning(chatSessionId);
        this.chats.delete(chatSessionId);
        this.earlierAgents.delete(chatSessionId);
        this.terminals.releaseAll(chatSessionId);
        await Promise.all(chats.map(chat => chat ? chat.agent.dispose() : Promise.resolve()));
        return ended || undefined;
    }

    async listAgentSessions(request: { agent: AcpAgentDefinition; cwd: string; roots: readonly string[]; cursor?: string }): Promise<AcpAgentSessionPage> {
        return listAgentSessions(this.launcher, CLIENT_INFO, request);
    }

    protected require(chatSessionId: string): ChatBinding {
        const chat = this.chats.get(chatSessionId);
        if (!chat) {
            throw new Error(`No agent runs for chat ${chatSessionId}`);
        }
        return chat;
    }

    /** The window closed: its agents stop. */
    dispose(): void {
        const chats = [...this.chats.values(), ...[...this.earlierAgents.values()].flatMap(earlier => [...earlier.values()])];
        this.earlierAgents.clear();
        // A turn the window could not end (it closed mid-turn) is recorded as it stands.
        [...this.chats.keys()].forEach(chatSessionId => this.checkpoints.endRunning(chatSessionId).catch(() => undefined));
        this.chats.clear();
        chats.forEach(chat => chat.agent.dispose().catch(error => this.logger.warn(`Could not stop an agent: ${messageOf(error)}`)));
        this.terminals.dispose();
    }
}
