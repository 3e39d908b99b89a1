import * as fs from 'fs';
import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { z } from 'zod';
import { ILogger } from '@theia/core/lib/common/logger';
import { AcpAgent, AcpClientServices, AcpSession, AcpAgentNotFoundError } from '@theia-cli-companion/acp-client/lib/node';
import { AcpLogger, boundToolCall, boundUpdate, toolOutputText } from '@theia-cli-companion/acp-client/lib/common';
import { checkInsideRoots, describeRefusal, OutsideRootsError, readFileWithinRoots, writeFileWithinRoots } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { IDE_MCP_SERVER_NAME, mcpServersForAgent, SharedMcpServer } from '../common/theia-mcp-servers';
import { sliceLines } from '../common/slice-lines';
import { CheckpointRetention, CheckpointRetentionSchema } from '../common/checkpoint-retention';
import { AcpTerminalHost } from './acp-terminal-host';
import { AcpTurnCheckpoints } from './acp-turn-checkpoints';
import { agentLaunchEnvironment } from './agent-launch-environment';
import { WindowAgentCredentials } from '@theia-cli-companion/ai-cli-core/lib/node';
import type { AgentCredential } from '@theia-cli-companion/ai-cli-core/lib/node';
import { SnapshotIncludeSchema } from '@theia-cli-companion/ai-cli-core/lib/common';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import {
    AcpChatBackend, AcpChatClient, AcpPromptResult, AcpRestoreResult, AcpSessionInfo, AcpStartResult, AcpTurnCheckpoint, StartAcpSessionRequest
} from '../common/acp-chat-protocol';

interface ChatBinding {
    /** The name of the agent definition (what a message names with @): one binding per (chat, agent). */
    readonly agentName: string;
    readonly agent: AcpAgent;
    readonly roots: readonly string[];
    /** Ignored files the turns' snapshots record anyway. */
    snapshotInclude: readonly string[];
    session?: AcpSession;
    /** The agent's own secret for this window's companion server, while it may use it. */
    credential?: AgentCredential;
    /** The user's MCP servers its session got, and the ones left out. */
    sharedMcpServers?: { offered: string[]; leftOut: { name: string; reason: string }[] };
    /** Prompts sent and not yet answered: a turn that must end when the chat changes agent. */
    promptsRunning: number;
}

/** How the window's server is named to the agent: Gemini CLI shows its tools to the model as `mcp_theia_<tool>`. */
export { IDE_MCP_SERVER_NAME } from '../common/theia-mcp-servers';

/** JSON-RPC error codes: -32000 is what agents (Gemini CLI, the ACP SDK's authRequired) send when credentials are missing. */
const AUTH_REQUIRED = -32000;
const CLIENT_INFO = { name: 'theia-ai-acp-chat', title: 'Eclipse Theia', version: '0.1.0' };
/** The most an agent reads of one file at once: a bound on what a repository's file can make the IDE hold. */
const MAX_READ_BYTES = 16 * 1024 * 1024;

/**
 * The ACP agents of one window's chat sessions: one agent process per chat session, started on its
 * first prompt. File reads and writes are checked against the window's workspace folders here;
 * reads are answered by the window from its editors, writes are done here (see {@link write});
 * permissions are asked in the window.
 */

/** The user's MCP servers as the window sends them (built by `sharedMcpServersOf`), checked again here. */
const SharedMcpServersSchema = z.array(z.union([
    z.object({ type: z.literal('http'), name: z.string().min(1), url: z.string().url(), headers: z.array(z.object({ name: z.string(), value: z.string() })) }).strict(),
    z.object({ name: z.string().min(1), command: z.string().min(1), args: z.array(z.string()), env: z.array(z.object({ name: z.string(), value: z.string() })) }).strict()
])).max(100) as z.ZodType<SharedMcpServer[]>;

/** A file path from the window: checked to be absolute and inside the roots where it is used. */
const FilePathSchema = z.string().min(1).max(4096);
/** A turn's id: the chat request's. */
const TurnIdSchema = z.string().min(1).max(200);
/** The window's workspace folders now: what a restore writes inside (never the folders a stored checkpoint names). */
const CurrentRootsSchema = z.array(FilePathSchema.refine(root => path.isAbsolute(root), 'a workspace folder must be an absolute path')).max(100);
const RestoreOptionsSchema = z.object({
    files: z.array(FilePathSchema).max(100_000).optional(), overwrite: z.array(FilePathSchema).max(100_000), skip: z.array(FilePathSchema).max(100_000),
    dirty: z.array(FilePathSchema).max(100_000).optional(), roots: CurrentRootsSchema
}).strict();
@injectable()
export class AcpChatBackendImpl implements AcpChatBackend {

    @inject(ILogger) @named('ai-acp-chat:AcpChatBackend') protected readonly logger: ILogger;
    @inject(AcpTerminalHost) protected readonly terminals: AcpTerminalHost;
    @inject(WindowAgentCredentials) protected readonly windowCredentials: WindowAgentCredentials;
    @inject(AcpTurnCheckpoints) protected readonly checkpoints: AcpTurnCheckpoints;

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

    protected get acpLogger(): AcpLogger {
        return {
            debug: message => this.logger.debug(message),
            info: message => this.logger.info(message),
            warn: message => this.logger.warn(message),
            error: message => this.logger.error(message)
        };
    }

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
            return { ok: true, session: { ...this.describe(request.chatSessionId, chat, false), ...change } };
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
            const shared = mcpServersForAgent(SharedMcpServersSchema.parse(request.mcpServers ?? []),
                chat.agent.initializeResponse?.agentCapabilities?.mcpCapabilities);
            shared.leftOut.forEach(({ name, reason }) => this.logger.info(`Chat ${request.chatSessionId}: MCP server ${name} not offered to ${request.agent.name}: ${reason}`));
            chat.sharedMcpServers = { offered: shared.servers.map(server => server.name), leftOut: shared.leftOut };
            const mcpServers = [...this.ideServerFor(request.agent.name, chat), ...shared.servers];
            let loadFailure: string | undefined;
            if (request.loadSessionId && chat.agent.canLoadSessions) {
                try {
                    chat.session = await chat.agent.loadSession({ sessionId: request.loadSessionId, cwd: request.cwd, mcpServers });
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
            this.logger.info(`Chat ${request.chatSessionId}: ${request.agent.name} session ${chat.session!.sessionId} ${loaded ? 'loaded' : 'started'} in ${request.cwd}`);
            this.checkpoints.warmUp(chat.roots, chat.snapshotInclude);
            return { ok: true, session: { ...this.describe(request.chatSessionId, chat, loaded), ...(loadFailure ? { loadFailure } : {}), ...change } };
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

    /**
     * The window's companion server, with a secret of this agent's own, when the window runs one
     * and the agent speaks MCP over HTTP: the agent gets the IDE's tools (diagnostics, open editors, …).
     */
    protected ideServerFor(agentName: string, chat: ChatBinding): acp.McpServer[] {
        if (!chat.agent.initializeResponse?.agentCapabilities?.mcpCapabilities?.http) {
            return [];
        }
        chat.credential ??= this.windowCredentials.issueAgentCredential(`ACP agent ${agentName}`);
        if (!chat.credential) {
            return [];
        }
        return [{ type: 'http', name: IDE_MCP_SERVER_NAME, url: chat.credential.url, headers: [{ name: 'Authorization', value: `Bearer ${chat.credential.token}` }] }];
    }

    protected launch(request: StartAcpSessionRequest): ChatBinding {
        const chatSessionId = request.chatSessionId;
        // Set below; the services run only once the agent is up. An agent the chat no longer talks to reaches nothing of the window.
        let chat: ChatBinding | undefined;
        const services: AcpClientServices = {
            // The window renders a few screens of a tool's output however long it is; the rest stays here, on demand.
            onUpdate: (_session, update, toolCall) => this.isCurrent(chatSessionId, chat)
                && this.client?.onSessionUpdate(chatSessionId, boundUpdate(update), toolCall && boundToolCall(toolCall).state),
            // One agent process per (chat, agent): whatever session it names, the chat is this one.
            onUnsupportedRequest: (_session, method) => this.isCurrent(chatSessionId, chat) && this.client?.onUnsupportedRequest(chatSessionId, method.slice(0, 100)),
            askPermission: async (_session, params, toolCall) => {
                if (!this.client || !this.isCurrent(chatSessionId, chat)) {
                    return { outcome: 'cancelled' };
                }
                return this.client.askPermission(chatSessionId, params, boundToolCall(toolCall).state);
            },
            readTextFile: async (_session, params) => {
                this.checkCurrent(chatSessionId, chat);
                await this.checkPath(chatSessionId, params.path);
                return { content: sliceLines(await this.read(chatSessionId, params.path), params.line ?? undefined, params.limit ?? undefined) };
            },
            writeTextFile: async (_session, params) => {
                this.checkCurrent(chatSessionId, chat);
                await this.checkPath(chatSessionId, params.path);
                const edited = await this.window.editedContentFor(chatSessionId, params);
                await this.write(chatSessionId, params.path, edited ?? params.content);
                await this.window.didWriteTextFile(chatSessionId, params.path);
                this.logger.info(`Chat ${chatSessionId}: the agent wrote ${params.path}${edited !== undefined ? ' (with the user\'s edits)' : ''}`);
            },
            terminals: {
                create: async (_session, params) => {
                    this.checkCurrent(chatSessionId, chat);
                    const started = await this.terminals.create(chatSessionId, params, request.cwd, request.roots);
                    this.logger.info(`Chat ${chatSessionId}: the agent runs ${params.command} in terminal ${started.terminalId}`);
                    this.client?.showTerminal(chatSessionId, { ...started, title: `${request.agent.name}: ${[params.command, ...params.args ?? []].join(' ')}` });
                    return { terminalId: started.terminalId };
                },
                output: async params => this.terminals.output(chatSessionId, params),
                waitForExit: (params, signal) => this.terminals.waitForExit(chatSessionId, params, signal),
                kill: async params => this.terminals.kill(chatSessionId, params),
                release: async params => this.terminals.release(chatSessionId, params)
            }
        };
        const agent = new AcpAgent({
            command: request.agent.command, args: request.agent.args, cwd: request.cwd,
            env: agentLaunchEnvironment(request.agent.command, { ...process.env, ...request.agent.env })
        }, services, this.acpLogger);
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

    /**
     * Writes here, not in the window: Theia's FileService follows symbolic links, so a link made in the
     * workspace between the check above and the window's write would redirect it. writeFileWithinRoots
     * judges the path again as it writes (dangling links followed) and never writes through a link;
     * the window then reloads its open editor of the file.
     */
    /**
     * The open editor's text, else the disk's, read here so a link planted after the check cannot
     * redirect it (see readFileWithinRoots). A missing file reads as empty: Gemini CLI cannot create a
     * file if its read fails.
     */
    protected async read(chatSessionId: string, filePath: string): Promise<string> {
        const open = await this.window.openEditorText(chatSessionId, filePath);
        if (open !== undefined) {
            return open;
        }
        try {
            const bytes = await readFileWithinRoots(filePath, this.chats.get(chatSessionId)?.roots ?? [], MAX_READ_BYTES);
            return bytes ? new TextDecoder('utf-8').decode(bytes) : '';
        } catch (error) {
            if (error instanceof OutsideRootsError) {
                this.logger.warn(`Chat ${chatSessionId}: refused the agent's read: ${error.message}`);
            }
            throw error;
        }
    }

    protected async write(chatSessionId: string, filePath: string, content: string): Promise<void> {
        try {
            await writeFileWithinRoots(filePath, content, this.chats.get(chatSessionId)?.roots ?? []);
        } catch (error) {
            if (error instanceof OutsideRootsError) {
                this.logger.warn(`Chat ${chatSessionId}: refused the agent's write: ${error.message}`);
            }
            throw error;
        }
    }

    async toolOutput(chatSessionId: string, toolCallId: string): Promise<string | undefined> {
        const id = z.string().max(1000).parse(toolCallId);
        // The chat's current agent first, then those it talked to before: an earlier turn's output stays at hand.
        const bindings = [this.chats.get(chatSessionId), ...this.earlierAgents.get(chatSessionId)?.values() ?? []];
        const call = bindings.map(chat => chat?.session?.toolCalls.get(id)).find(found => found !== undefined);
        return call && toolOutputText(call);
    }

    async readForReview(chatSessionId: string, filePath: string): Promise<string | undefined> {
        const file = FilePathSchema.parse(filePath);
        await this.checkPath(chatSessionId, file);
        const bytes = await readFileWithinRoots(file, this.require(chatSessionId).roots, MAX_READ_BYTES);
        return bytes && new TextDecoder('utf-8').decode(bytes);
    }

    async landingInWorkspace(chatSessionId: string, filePath: string): Promise<string | undefined> {
        const verdict = await checkInsideRoots(FilePathSchema.parse(filePath), this.chats.get(chatSessionId)?.roots ?? []);
        return verdict.inside ? verdict.realPath : undefined;
    }

    async replaceWritten(chatSessionId: string, filePath: string, expected: string, reviewed: string): Promise<boolean> {
        const file = FilePathSchema.parse(filePath);
        const [was, text] = [z.string().parse(expected), z.string().parse(reviewed)];
        if (await this.readForReview(chatSessionId, file) !== was) {
            return false;
        }
        await this.write(chatSessionId, file, text);
        await this.window.didWriteTextFile(chatSessionId, file);
        this.logger.info(`Chat ${chatSessionId}: replaced the agent's write of ${file} with the user's reviewed text`);
        return true;
    }

    /** The agent may touch the workspace folders only; symlinks pointing out count as outside. */
    protected async checkPath(chatSessionId: string, filePath: string): Promise<void> {
        const chat = this.chats.get(chatSessionId);
        if (!path.isAbsolute(filePath)) {
            throw new Error(`The path must be absolute: ${filePath}`);
        }
        const roots = chat?.roots ?? [];
        const refusal = describeRefusal(filePath, await checkInsideRoots(filePath, roots), roots);
        if (refusal) {
            this.logger.warn(`Chat ${chatSessionId}: refused the agent access to ${filePath}: it ${refusal}`);
            throw new Error(`${filePath} ${refusal}; access refused`);
        }
    }

    protected describe(chatSessionId: string, chat: ChatBinding, loaded: boolean): AcpSessionInfo {
        const session = chat.session!;
        return {
            chatSessionId, sessionId: session.sessionId, loaded,
            agentInfo: chat.agent.initializeResponse?.agentInfo,
            promptCapabilities: chat.agent.initializeResponse?.agentCapabilities?.promptCapabilities,
            mcpServers: chat.sharedMcpServers,
            // As the session is now (a resumed one may have changed mode or model since it started).
            modes: session.setup.modes && { ...session.setup.modes, currentModeId: session.currentModeId ?? session.setup.modes.currentModeId },
            models: session.setup.models && { ...session.setup.models, currentModelId: session.currentModelId ?? session.setup.models.currentModelId }
        };
    }

    async authenticate(chatSessionId: string, methodId: string, meta?: Record<string, unknown>): Promise<void> {
        const chat = this.require(chatSessionId);
        await chat.agent.authenticate({ methodId, _meta: meta });
        // Never log `meta`: it carries the key.
        this.logger.info(`Chat ${chatSessionId}: authenticated with ${methodId}`);
    }

    async prompt(chatSessionId: string, prompt: acp.ContentBlock[], turnId?: string, agentName?: string): Promise<AcpPromptResult> {
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
        try {
            const response = await session.prompt(prompt);
            return { ok: true, stopReason: response.stopReason, meta: response._meta ?? undefined };
        } catch (error) {
            return { ok: false, message: messageOf(error) };
        } finally {
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

    async closeSession(chatSessionId: string): Promise<void> {
        const chats = [this.chats.get(chatSessionId), ...this.earlierAgents.get(chatSessionId)?.values() ?? []];
        await this.checkpoints.endRunning(chatSessionId);
        this.chats.delete(chatSessionId);
        this.earlierAgents.delete(chatSessionId);
        this.terminals.releaseAll(chatSessionId);
        await Promise.all(chats.map(chat => chat ? chat.agent.dispose() : Promise.resolve()));
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

async function realRoots(roots: readonly string[]): Promise<string[]> {
    const resolved = await Promise.all(roots.map(root => fs.promises.realpath(root).catch(() => undefined)));
    return resolved.filter((root): root is string => !!root);
}

function messageOf(error: unknown): string {
    if (error && typeof error === 'object') {
        const { message, data } = error as { message?: unknown; data?: { details?: unknown } };
        const details = typeof data?.details === 'string' ? `: ${data.details}` : '';
        if (typeof message === 'string') {
            return message + details;
        }
    }
    return String(error);
}
