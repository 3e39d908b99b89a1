import type * as acp from '@agentclientprotocol/sdk';
import { AcpLogger } from '../common/acp-logger';
import { ToolCallState, ToolCallTracker } from '../common/tool-call-tracker';
import { AcpAgentConnection, AcpAgentExit, AcpAgentLaunch } from './acp-agent-connection';

/** What the embedding IDE provides to every session of an agent. */
export interface AcpClientServices {
    /** Asks the user; `toolCall` is everything known about the call so far, the request's own fields included. */
    askPermission(session: AcpSession, params: acp.RequestPermissionRequest, toolCall: ToolCallState): Promise<acp.RequestPermissionOutcome>;
    /** The agent withdrew its permission request for this tool call ($/cancel_request): it was answered `cancelled`. */
    onPermissionWithdrawn?(session: AcpSession, toolCallId: string): void;
    /** A session update, after the session's tool-call state took it in. */
    onUpdate(session: AcpSession, update: acp.SessionUpdate, toolCall?: ToolCallState): void;
    /** The agent asked for something this client does not serve; it was answered "method not found". */
    onUnsupportedRequest?(session: AcpSession | undefined, method: string): void;
    /**
     * Asks the user the agent's question (elicitation/create: a form, or a URL to open); `session` is undefined for a
     * question outside any session (during sign-in). `signal` aborts when the agent withdraws the question.
     */
    askQuestion?(session: AcpSession | undefined, params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
    /** The agent says the URL question with this id is done (elicitation/complete). */
    onQuestionComplete?(elicitationId: string): void;
    /**
     * The IDE shows a subagent's work under the tool call that started it (`subagentParentOf`): the agent may then
     * send the subagent's own messages too (advertised as `_meta["subagent-transcript"]`, Claude Code's adapter).
     */
    readonly showsSubagents?: boolean;
    readTextFile?(session: AcpSession, params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
    writeTextFile?(session: AcpSession, params: acp.WriteTextFileRequest): Promise<void>;
    terminals?: {
        create(session: AcpSession, params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
        output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
        waitForExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
        kill(params: acp.KillTerminalRequest): Promise<void>;
        release(params: acp.ReleaseTerminalRequest): Promise<void>;
    };
}

/**
 * The session state returned by session/new or session/load: ACP's config options (mode, model, thought level,
 * others) and the older `modes`; `models` is Gemini CLI's extension.
 */
export interface AcpSessionSetup {
    readonly configOptions?: acp.SessionConfigOption[] | null;
    readonly modes?: acp.SessionModeState | null;
    readonly models?: { currentModelId?: string; availableModels?: { modelId: string; name: string; description?: string | null }[] } | null;
}

/**
 * One ACP session of an agent: its tool calls, its mode, and the permission requests waiting for
 * the user, which a cancelled turn answers `cancelled` (agents such as Gemini CLI keep waiting
 * for the answer otherwise).
 */
export class AcpSession {
    readonly toolCalls = new ToolCallTracker();
    protected readonly pendingPermissions = new Set<(outcome: acp.RequestPermissionOutcome) => void>();
    currentModeId?: string;
    currentModelId?: string;
    /** The agent's settings for this session, as it last listed them (every list replaces the one before). */
    configOptions: readonly acp.SessionConfigOption[] = [];

    constructor(readonly agent: AcpAgent, readonly sessionId: string, public setup: AcpSessionSetup) {
        this.adopt(setup);
    }

    /** @internal the state of a session/new, session/load or session/resume answer */
    adopt(setup: AcpSessionSetup): void {
        this.setup = setup;
        this.currentModeId = setup.modes?.currentModeId;
        this.currentModelId = setup.models?.currentModelId;
        this.configOptions = setup.configOptions ?? [];
    }

    /**
     * Sets one of the agent's config options. The value is checked against the option as the agent listed it (an id
     * of its choices, or a boolean for a boolean option) before anything is sent; the agent's answer is the new list.
     */
    async setConfigOption(configId: string, value: string | boolean): Promise<void> {
        const option = this.configOptions.find(candidate => candidate.id === configId);
        if (!option) {
            throw new Error(`The agent offers no setting ${JSON.stringify(configId)} (it offers: ${this.configOptions.map(o => o.id).join(', ') || 'none'})`);
        }
        if (option.type === 'boolean' ? typeof value !== 'boolean' : typeof value !== 'string' || !selectValues(option).includes(value)) {
            throw new Error(`${JSON.stringify(value)} is not a value of the setting ${option.name} (${option.id})`);
        }
        const response = await this.agent.connection.setConfigOption(this.sessionId, configId, value);
        this.configOptions = response.configOptions;
    }

    prompt(prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
        return this.agent.connection.prompt({ sessionId: this.sessionId, prompt });
    }

    /** Asks the agent to stop the turn and withdraws every question it is waiting on. */
    async cancel(): Promise<void> {
        this.pendingPermissions.forEach(resolve => resolve({ outcome: 'cancelled' }));
        this.pendingPermissions.clear();
        if (!this.agent.connection.hasExited) {
            await this.agent.connection.cancel(this.sessionId);
        }
    }

    async setMode(modeId: string): Promise<void> {
        await this.agent.connection.setMode(this.sessionId, modeId);
        this.currentModeId = modeId;
    }

    async setModel(modelId: string): Promise<void> {
        await this.agent.connection.setModel(this.sessionId, modelId);
        this.currentModelId = modelId;
    }

    get waitingForPermission(): number {
        return this.pendingPermissions.size;
    }

    /** @internal routed here by the agent */
    handleUpdate(update: acp.SessionUpdate): void {
        if (update.sessionUpdate === 'current_mode_update') {
            this.currentModeId = update.currentModeId;
        } else if (update.sessionUpdate === 'config_option_update') {
            this.configOptions = update.configOptions;
        }
        const toolCall = update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update' ? this.toolCalls.apply(update).state : undefined;
        this.agent.services.onUpdate(this, update, toolCall);
    }

    /** @internal routed here by the agent */
    async requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
        const { state } = this.toolCalls.apply(params.toolCall);
        let withdraw!: (outcome: acp.RequestPermissionOutcome) => void;
        const withdrawn = new Promise<acp.RequestPermissionOutcome>(resolve => withdraw = resolve);
        this.pendingPermissions.add(withdraw);
        const onAbort = () => {
            withdraw({ outcome: 'cancelled' });
            this.agent.services.onPermissionWithdrawn?.(this, state.toolCallId);
        };
        signal.addEventListener('abort', onAbort);
        try {
            const outcome = await Promise.race([this.agent.services.askPermission(this, params, state), withdrawn]);
            if (outcome.outcome === 'selected' && !params.options.some(option => option.optionId === outcome.optionId)) {
                throw new Error(`The answer ${outcome.optionId} is not one of the options offered`);
            }
            return { outcome };
        } finally {
            signal.removeEventListener('abort', onAbort);
            this.pendingPermissions.delete(withdraw);
        }
    }
}

/**
 * A running ACP agent and its sessions. Requests from the agent are routed to the session they
 * name; a request for a session this client never opened is refused.
 */
export class AcpAgent {
    /** How many updates of a session not yet known are held while a session/new is answered. */
    static readonly MAX_EARLY_UPDATES = 200;

    readonly connection: AcpAgentConnection;
    protected readonly sessions = new Map<string, AcpSession>();
    /** session/new requests not yet answered: updates for the session they create can come first. */
    protected sessionsBeingCreated = 0;
    /**
     * Updates that named a session before session/new returned its id (codex-acp sends the session's
     * commands and settings that early), by session id; handed to the session once registered.
     */
    protected readonly earlyUpdates = new Map<string, acp.SessionUpdate[]>();

    constructor(launch: AcpAgentLaunch, readonly services: AcpClientServices, protected readonly logger: AcpLogger) {
        this.connection = new AcpAgentConnection(launch, {
            sessionUpdate: notification => {
                const session = this.sessions.get(notification.sessionId);
                if (session) {
                    session.handleUpdate(notification.update);
                } else if (!this.holdEarlyUpdate(notification)) {
                    this.logger.warn(`The agent sent an update for unknown session ${notification.sessionId}; ignored`);
                }
            },
            requestPermission: (params, signal) => this.session(params.sessionId).requestPermission(params, signal),
            unsupportedRequest: (method, sessionId) => services.onUnsupportedRequest?.(sessionId === undefined ? undefined : this.sessions.get(sessionId), method),
            elicit: services.askQuestion && ((params, signal) => {
                const sessionId = sessionOf(params);
                return services.askQuestion!(sessionId === undefined ? undefined : this.session(sessionId), params, signal);
            }),
            elicitationComplete: services.onQuestionComplete && (params => services.onQuestionComplete!(params.elicitationId)),
            showsSubagents: services.showsSubagents,
            readTextFile: services.readTextFile && (params => services.readTextFile!(this.session(params.sessionId), params)),
            writeTextFile: services.writeTextFile && (params => services.writeTextFile!(this.session(params.sessionId), params)),
            ...(services.terminals ? {
                createTerminal: params => services.terminals!.create(this.session(params.sessionId), params),
                terminalOutput: params => services.terminals!.output(params),
                waitForTerminalExit: (params, signal) => services.terminals!.waitForExit(params, signal),
                killTerminal: params => services.terminals!.kill(params),
                releaseTerminal: params => services.terminals!.release(params)
            } : {})
        }, logger);
    }

    initialize(clientInfo: { name: string; version: string; title?: string }): Promise<acp.InitializeResponse> {
        return this.connection.initialize(clientInfo);
    }

    authenticate(params: acp.AuthenticateRequest): Promise<acp.AuthenticateResponse> {
        return this.connection.authenticate(params);
    }

    get initializeResponse(): acp.InitializeResponse | undefined {
        return this.connection.initializeResponse;
    }

    async newSession(params: acp.NewSessionRequest): Promise<AcpSession> {
        this.sessionsBeingCreated++;
        try {
            const response = await this.connection.newSession(params);
            const session = this.register(response.sessionId, response as AcpSessionSetup);
            const early = this.earlyUpdates.get(response.sessionId) ?? [];
            this.earlyUpdates.delete(response.sessionId);
            early.forEach(update => session.handleUpdate(update));
            return session;
        } finally {
            if (--this.sessionsBeingCreated === 0 && this.earlyUpdates.size) {
                this.logger.warn(`The agent sent updates for unknown sessions ${[...this.earlyUpdates.keys()].join(', ')}; ignored`);
                this.earlyUpdates.clear();
            }
        }
    }

    /** Holds an update for a session a pending session/new may be creating; false when none is pending or too many are held. */
    protected holdEarlyUpdate(notification: acp.SessionNotification): boolean {
        if (this.sessionsBeingCreated === 0) {
            return false;
        }
        const held = this.earlyUpdates.get(notification.sessionId) ?? [];
        const total = [...this.earlyUpdates.values()].reduce((sum, updates) => sum + updates.length, 0);
        if (total >= AcpAgent.MAX_EARLY_UPDATES) {
            return false;
        }
        held.push(notification.update);
        this.earlyUpdates.set(notification.sessionId, held);
        return true;
    }

    /**
     * Reopens a session the agent stored; the agent replays its history as updates, which may
     * arrive before the response: the session is registered before asking.
     */
    async loadSession(params: acp.LoadSessionRequest): Promise<AcpSession> {
        const session = this.register(params.sessionId, {});
        try {
            session.adopt(await this.connection.loadSession(params) as AcpSessionSetup);
            return session;
        } catch (error) {
            this.sessions.delete(params.sessionId);
            throw error;
        }
    }

    get canLoadSessions(): boolean {
        return !!this.connection.initializeResponse?.agentCapabilities?.loadSession;
    }

    /** What the agent offers for its stored sessions besides session/load (list, resume, close, delete). */
    get sessionCapabilities(): acp.SessionCapabilities {
        return this.connection.initializeResponse?.agentCapabilities?.sessionCapabilities ?? {};
    }

    /** One page of the agent's stored sessions (for a folder, when given); refused when the agent does not list them. */
    async listSessions(params: acp.ListSessionsRequest = {}): Promise<acp.ListSessionsResponse> {
        this.require('list');
        return this.connection.listSessions(params);
    }

    /** Reopens a stored session without its history replayed (session/resume); refused when the agent cannot. */
    async resumeSession(params: acp.ResumeSessionRequest): Promise<AcpSession> {
        this.require('resume');
        const session = this.register(params.sessionId, {});
        try {
            session.adopt(await this.connection.resumeSession(params) as AcpSessionSetup);
            return session;
        } catch (error) {
            this.sessions.delete(params.sessionId);
            throw error;
        }
    }

    /** Ends a session and frees what the agent keeps for it (session/close); it stays in the agent's list. */
    async closeSession(sessionId: string): Promise<void> {
        this.require('close');
        await this.connection.closeSession(sessionId);
        this.sessions.delete(sessionId);
    }

    /** Deletes a session from the agent's store (session/delete): it leaves the agent's list. */
    async deleteSession(sessionId: string): Promise<void> {
        this.require('delete');
        await this.connection.deleteSession(sessionId);
        this.sessions.delete(sessionId);
    }

    protected require(capability: 'list' | 'resume' | 'close' | 'delete'): void {
        if (!this.sessionCapabilities[capability]) {
            const name = this.connection.initializeResponse?.agentInfo?.name ?? 'The agent';
            throw new Error(`${name} does not offer session/${capability}`);
        }
    }

    protected register(sessionId: string, setup: AcpSessionSetup): AcpSession {
        const session = new AcpSession(this, sessionId, setup);
        this.sessions.set(sessionId, session);
        return session;
    }

    protected session(sessionId: string): AcpSession {
        const session = this.sessions.get(sessionId);
        if (!session) {
            throw new Error(`Unknown session ${sessionId}`);
        }
        return session;
    }

    onExit(listener: (exit: AcpAgentExit) => void): void {
        this.connection.onExit(listener);
    }

    dispose(): Promise<void> {
        this.sessions.forEach(session => session.cancel().catch(() => undefined));
        return this.connection.dispose();
    }
}

/** The value ids a select option offers, its groups' included. */
function selectValues(option: acp.SessionConfigOption & { type: 'select' }): string[] {
    return option.options.flatMap(entry => 'group' in entry ? entry.options.map(choice => choice.value) : [entry.value]);
}

/** The session a question belongs to; none for a request-scoped one (asked outside any session). */
function sessionOf(params: acp.CreateElicitationRequest): string | undefined {
    return 'sessionId' in params && typeof params.sessionId === 'string' ? params.sessionId : undefined;
}
