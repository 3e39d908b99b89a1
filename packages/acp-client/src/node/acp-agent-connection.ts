import { ChildProcess } from 'child_process';
import { findAbsoluteExecutable, signalProcessGroup, spawnInOwnGroup } from '@theia-cli-companion/cli-process/lib/node';
import { BoundedLine, BoundedLineSplitter } from '@theia-cli-companion/cli-process/lib/common';
import { PassThrough, Readable, Writable } from 'stream';
import type * as acp from '@agentclientprotocol/sdk';
import { acpSdk } from './acp-sdk';
import { AcpClientHandlers, clientCapabilitiesOf, createClientApp } from './acp-client-app';
import { AcpLogger } from '../common/acp-logger';

/** How to start an agent: a command speaking ACP on its stdio. */
export interface AcpAgentLaunch {
    readonly command: string;
    readonly args: readonly string[];
    /** The whole environment of the agent process. */
    readonly env: NodeJS.ProcessEnv;
    readonly cwd: string;
}

/** How the agent process ended. */
export interface AcpAgentExit {
    readonly code: number | null;
    readonly signal: NodeJS.Signals | null;
    /** The last lines the agent wrote to stderr, for the error shown to the user. */
    readonly stderrTail: string;
    /** True when we stopped it (dispose); false for a crash or an exit of its own. */
    readonly expected: boolean;
}

/**
 * The agent's command is not installed: not on the absolute entries of PATH, or the path does not
 * exist (a relative path such as `bin/agent` counts as not found: it would name a file of the repository).
 */
export class AcpAgentNotFoundError extends Error {
    constructor(readonly command: string) {
        super(`The ACP agent command "${command}" was not found on the PATH (relative PATH entries such as "." are not searched)`);
        this.name = 'AcpAgentNotFoundError';
    }
}

const STDERR_TAIL_LINES = 20;
/**
 * The largest ACP message read from an agent's stdout (the SDK's own default is 32 MiB): room for a
 * file of 16 MiB written through the client, escaped. A longer line ends the connection and the agent.
 */
export const MAX_AGENT_MESSAGE_BYTES = 64 * 1024 * 1024;
/** What is kept of one stderr line (for the log and the exit message); the rest of a longer one is dropped. */
export const MAX_STDERR_LINE_LENGTH = 64 * 1024;
/** What is looked at of one stdout line besides the SDK's parse: chatter to log, requests the client does not serve. */
const MAX_INSPECTED_LINE_LENGTH = 1024 * 1024;
const EXIT_GRACE_MS = 3000;
/** How long an agent gets to exit on EOF before it is asked with SIGTERM (the Claude agent adapter never exits on EOF). */
const EOF_GRACE_MS = 500;
/** Custom method Gemini CLI serves though the 2.4.0 schema does not list it. */
export const SET_MODEL_METHOD = 'session/set_model';

/**
 * One running ACP agent process and the JSON-RPC connection to it (the ACP SDK's client side).
 * Requests the agent makes are answered by the given handlers; every failure of the process is
 * reported once through {@link onExit}, and pending requests reject.
 */
export class AcpAgentConnection {
    /** Set once the command is found and started. */
    protected child?: ChildProcess;
    protected readonly connection: acp.ClientConnection;
    protected readonly stderrLines: string[] = [];
    protected readonly exitListeners: Array<(exit: AcpAgentExit) => void> = [];
    protected disposing = false;
    protected exitInfo?: AcpAgentExit;
    /** Why we stopped the agent ourselves, when it broke the protocol (a message over the limit). */
    protected failure?: string;
    /** Bytes of the stdout line being written, however long it is (nothing of it is held here). */
    protected stdoutLineBytes = 0;
    /** The agent's stdio, through streams that exist before the process (its command is resolved first). */
    protected readonly stdin = new PassThrough();
    protected readonly stdout = new PassThrough();
    protected readonly stderr = new PassThrough();
    readonly exited: Promise<AcpAgentExit>;
    readonly spawned: Promise<void>;
    initializeResponse?: acp.InitializeResponse;

    constructor(readonly launch: AcpAgentLaunch, protected readonly handlers: AcpClientHandlers, protected readonly logger: AcpLogger) {
        let finish!: (code: number | null, signal: NodeJS.Signals | null) => void;
        this.exited = new Promise(resolve => {
            finish = (code, signal) => {
                if (this.exitInfo) {
                    return;
                }
                this.exitInfo = { code, signal, stderrTail: this.stderrLines.join('\n'), expected: this.disposing && !this.failure };
                resolve(this.exitInfo);
                this.exitListeners.splice(0).forEach(listener => listener(this.exitInfo!));
            };
        });
        this.spawned = this.spawn(finish);
        this.spawned.catch(() => undefined);
        const stderrLines = new BoundedLineSplitter(MAX_STDERR_LINE_LENGTH);
        const onStderr = (lines: BoundedLine[]) => lines.forEach(({ text, cut }) => {
            const line = cut ? `${text} [line cut at ${MAX_STDERR_LINE_LENGTH} characters]` : text;
            this.stderrLines.push(line);
            if (this.stderrLines.length > STDERR_TAIL_LINES) {
                this.stderrLines.shift();
            }
            this.logger.debug(`agent stderr: ${line}`);
        });
        this.stderr.on('data', (chunk: Buffer) => onStderr(stderrLines.push(chunk))).on('end', () => onStderr(stderrLines.end()));
        // The SDK answers a line that is not JSON with a parse error to the agent; we also log it, with the line.
        const forSdk = new PassThrough();
        const stdoutLines = new BoundedLineSplitter(MAX_INSPECTED_LINE_LENGTH);
        const onStdout = (lines: BoundedLine[]) => lines.forEach(({ text, cut }) => {
            if (text.trim() && !looksLikeJsonObject(text, cut)) {
                this.logger.warn(`The agent wrote a line that is not a JSON-RPC message; ignored: ${text.slice(0, 200)}`);
            } else if (text.trim() && !cut) {
                this.noticeUnsupportedRequest(text);
            }
        });
        this.stdout.on('data', (chunk: Buffer) => {
            this.measureStdoutLine(chunk);
            onStdout(stdoutLines.push(chunk));
        }).on('end', () => onStdout(stdoutLines.end()));
        this.stdout.pipe(forSdk);
        this.stdin.on('error', error => this.logger.debug(`agent stdin: ${error.message}`));
        const stream = acpSdk().ndJsonStream(Writable.toWeb(this.stdin) as WritableStream<Uint8Array>, Readable.toWeb(forSdk) as ReadableStream<Uint8Array>,
            { maxMessageBytes: MAX_AGENT_MESSAGE_BYTES });
        this.connection = createClientApp(this.handlers, this.servedMethods).connect(stream);
        void this.exited.then(() => this.connection.close(new Error(this.describeExit())));
    }

    /**
     * Resolves the command once to an absolute path, on the absolute entries of the agent's PATH only
     * (with `.` in PATH and the repository as working folder, the repository's own `gemini` would run
     * otherwise), and starts that path.
     */
    protected async spawn(finish: (code: number | null, signal: NodeJS.Signals | null) => void): Promise<void> {
        const { launch } = this;
        const executable = await findAbsoluteExecutable(launch.command, launch.env.PATH);
        if (!executable || this.disposing) {
            finish(null, null);
            this.stdout.end();
            this.stderr.end();
            if (!executable) {
                throw new AcpAgentNotFoundError(launch.command);
            }
            return;
        }
        // A process group of its own: agents (Gemini CLI) relaunch themselves as a child process,
        // and stopping the agent must stop all of it.
        const child = this.child = spawnInOwnGroup(executable, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'] });
        child.once('exit', finish);
        child.once('error', () => finish(null, null));
        child.stdout!.pipe(this.stdout);
        child.stderr!.pipe(this.stderr);
        this.stdin.pipe(child.stdin!);
        child.stdin!.on('error', error => this.logger.debug(`agent stdin: ${error.message}`));
        await new Promise<void>((resolve, reject) => {
            child.once('spawn', () => resolve());
            child.once('error', error => reject((error as NodeJS.ErrnoException).code === 'ENOENT' ? new AcpAgentNotFoundError(launch.command) : error));
        });
    }

    /**
     * The SDK refuses a line over {@link MAX_AGENT_MESSAGE_BYTES} and closes the connection; the agent,
     * which may write on forever, is stopped here at the same point, saying why.
     */
    protected measureStdoutLine(chunk: Buffer): void {
        const first = chunk.indexOf(0x0a);
        const longest = first < 0 ? this.stdoutLineBytes + chunk.length : this.stdoutLineBytes + first;
        this.stdoutLineBytes = first < 0 ? longest : chunk.length - chunk.lastIndexOf(0x0a) - 1;
        if (Math.max(longest, this.stdoutLineBytes) > MAX_AGENT_MESSAGE_BYTES && !this.failure) {
            this.failure = `it wrote a message longer than ${MAX_AGENT_MESSAGE_BYTES / (1024 * 1024)} MiB on stdout, more than this client reads`;
            this.logger.error(`The agent (${this.launch.command}) is stopped: ${this.failure}`);
            this.stdout.unpipe();
            this.stdout.resume();
            this.killGroup('SIGKILL');
        }
    }

    /** The methods of the agent's requests that a handler serves (session/update is a notification). */
    protected readonly servedMethods = new Set<string>();

    protected noticeUnsupportedRequest(line: string): void {
        // Most lines are session updates, some of them large (tool output): they are not parsed twice.
        if (!line.includes('"id"') || line.includes('"method":"session/update"')) {
            return;
        }
        let message: { id?: unknown; method?: unknown; params?: { sessionId?: unknown } };
        try {
            message = JSON.parse(line);
        } catch {
            return;
        }
        if (message.id !== undefined && typeof message.method === 'string' && !this.servedMethods.has(message.method)) {
            const sessionId = typeof message.params?.sessionId === 'string' ? message.params.sessionId : undefined;
            this.logger.warn(`The agent asked "${message.method.slice(0, 100)}", which this client does not serve; it is answered "method not found"`);
            this.handlers.unsupportedRequest?.(message.method, sessionId);
        }
    }

    /** The capabilities matching the handlers given: advertise only what is answered. */
    get clientCapabilities(): acp.ClientCapabilities {
        return clientCapabilitiesOf(this.handlers);
    }

    onExit(listener: (exit: AcpAgentExit) => void): void {
        if (this.exitInfo) {
            listener(this.exitInfo);
        } else {
            this.exitListeners.push(listener);
        }
    }

    get hasExited(): boolean {
        return !!this.exitInfo;
    }

    get pid(): number | undefined {
        return this.child?.pid;
    }

    protected get agent(): acp.ClientContext {
        return this.connection.agent;
    }

    /** Waits for the process, then negotiates; fails with {@link AcpAgentNotFoundError} if it could not start. */
    async initialize(clientInfo: { name: string; version: string; title?: string }): Promise<acp.InitializeResponse> {
        await this.spawned;
        this.initializeResponse = await this.race(this.agent.request(acpSdk().methods.agent.initialize, {
            protocolVersion: acpSdk().PROTOCOL_VERSION, clientCapabilities: this.clientCapabilities, clientInfo
        }));
        return this.initializeResponse;
    }

    authenticate(params: acp.AuthenticateRequest): Promise<acp.AuthenticateResponse> {
        return this.race(this.agent.request(acpSdk().methods.agent.authenticate, params));
    }

    /** The raw response, so fields outside the schema (Gemini's `models`) stay visible. */
    newSession(params: acp.NewSessionRequest): Promise<acp.NewSessionResponse & { models?: unknown }> {
        return this.race(this.agent.request(acpSdk().methods.agent.session.new, params));
    }

    loadSession(params: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse & { models?: unknown }> {
        return this.race(this.agent.request(acpSdk().methods.agent.session.load, params));
    }

    prompt(params: acp.PromptRequest): Promise<acp.PromptResponse> {
        return this.race(this.agent.request(acpSdk().methods.agent.session.prompt, params));
    }

    cancel(sessionId: string): Promise<void> {
        return this.agent.notify(acpSdk().methods.agent.session.cancel, { sessionId });
    }

    setMode(sessionId: string, modeId: string): Promise<acp.SetSessionModeResponse> {
        return this.race(this.agent.request(acpSdk().methods.agent.session.setMode, { sessionId, modeId }));
    }

    listSessions(params: acp.ListSessionsRequest): Promise<acp.ListSessionsResponse> {
        return this.race(this.agent.request(acpSdk().methods.agent.session.list, params));
    }

    resumeSession(params: acp.ResumeSessionRequest): Promise<acp.ResumeSessionResponse> {
        return this.race(this.agent.request(acpSdk().methods.agent.session.resume, params));
    }

    closeSession(sessionId: string): Promise<acp.CloseSessionResponse> {
        return this.race(this.agent.request(acpSdk().methods.agent.session.close, { sessionId }));
    }

    deleteSession(sessionId: string): Promise<acp.DeleteSessionResponse> {
        return this.race(this.agent.request(acpSdk().methods.agent.session.delete, { sessionId }));
    }

    /** ACP's session/set_config_option: a select option takes a value id, a boolean one `type: 'boolean'` and a boolean. */
    setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<acp.SetSessionConfigOptionResponse> {
        const params: acp.SetSessionConfigOptionRequest = typeof value === 'boolean'
            ? { sessionId, configId, type: 'boolean', value }
            : { sessionId, configId, value };
        return this.race(this.agent.request(acpSdk().methods.agent.session.setConfigOption, params));
    }

    setModel(sessionId: string, modelId: string): Promise<unknown> {
        return this.race(this.agent.request(SET_MODEL_METHOD, { sessionId, modelId }));
    }

    /** A request to an agent that dies answers with the exit, not a hang. */
    protected async race<T>(request: Promise<T>): Promise<T> {
        try {
            return await Promise.race([request, this.exited.then(() => Promise.reject(new Error(this.describeExit())))]);
        } catch (error) {
            // The SDK sees stdout close before Node reports the exit: wait a moment for the exit's details.
            if (!this.exitInfo && (this.child?.stdout?.readableEnded || this.failure)) {
                await Promise.race([this.exited, new Promise(resolve => setTimeout(resolve, 1000))]);
            }
            throw this.exitInfo && !this.exitInfo.expected ? new Error(this.describeExit()) : error;
        }
    }

    describeExit(): string {
        const exit = this.exitInfo;
        if (!exit) {
            return 'The agent is running';
        }
        const how = this.failure ? `was stopped: ${this.failure}` : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
        return `The agent (${this.launch.command}) ${how}${exit.stderrTail ? `; its last output:\n${exit.stderrTail}` : ''}`;
    }

    /**
     * Closes stdin (agents exit on EOF); an agent still there shortly after gets SIGTERM (so it can stop
     * what it started), and the whole process group SIGKILL if it still lingers.
     */
    async dispose(): Promise<void> {
        if (this.exitInfo) {
            return;
        }
        this.disposing = true;
        this.stdin.end();
        const timers = [setTimeout(() => this.killGroup('SIGTERM'), EOF_GRACE_MS), setTimeout(() => this.killGroup('SIGKILL'), EXIT_GRACE_MS)];
        await this.exited;
        timers.forEach(clearTimeout);
        // The launcher may exit before the process it relaunched: make sure the group is gone.
        this.killGroup('SIGKILL');
    }

    protected killGroup(signal: NodeJS.Signals): void {
        if (this.child) {
            signalProcessGroup(this.child, signal);
        }
    }
}

/**
 * A cheap shape check, not a parse: the SDK parses every line anyway (and answers a broken one
 * with a parse error); this only spots the chatter some agents print to stdout, to log it.
 */
function looksLikeJsonObject(line: string, cut = false): boolean {
    const trimmed = line.trim();
    return trimmed.startsWith('{') && (cut || trimmed.endsWith('}'));
}
