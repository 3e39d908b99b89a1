import { ChildProcess } from 'child_process';
import { signalProcessGroup, spawnInOwnGroup } from '@theia-cli-companion/cli-process/lib/node';
import { PassThrough, Readable, Writable } from 'stream';
import * as readline from 'readline';
import type * as acp from '@agentclientprotocol/sdk';
import { acpSdk } from './acp-sdk';
import { AcpLogger } from '../common/acp-logger';

/** How to start an agent: a command speaking ACP on its stdio. */
export interface AcpAgentLaunch {
    readonly command: string;
    readonly args: readonly string[];
    /** The whole environment of the agent process. */
    readonly env: NodeJS.ProcessEnv;
    readonly cwd: string;
}

/**
 * What the client answers when the agent asks. Optional methods the client does not implement are
 * answered "method not found" and must not be advertised in the client capabilities.
 */
export interface AcpClientHandlers {
    sessionUpdate(notification: acp.SessionNotification): void;
    requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
    readTextFile?(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
    writeTextFile?(params: acp.WriteTextFileRequest): Promise<void>;
    createTerminal?(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
    terminalOutput?(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
    waitForTerminalExit?(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
    killTerminal?(params: acp.KillTerminalRequest): Promise<void>;
    releaseTerminal?(params: acp.ReleaseTerminalRequest): Promise<void>;
    /**
     * The agent asked for something no handler serves (a method of a newer ACP, or one not advertised):
     * the SDK answers it "method not found" (-32601), as the protocol says; this lets the IDE show it.
     */
    unsupportedRequest?(method: string, sessionId: string | undefined): void;
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

/** The agent's command is not installed (not on PATH, or the path does not exist). */
export class AcpAgentNotFoundError extends Error {
    constructor(readonly command: string) {
        super(`The ACP agent command "${command}" was not found on the PATH`);
        this.name = 'AcpAgentNotFoundError';
    }
}

const STDERR_TAIL_LINES = 20;
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
    protected readonly child: ChildProcess;
    protected readonly connection: acp.ClientConnection;
    protected readonly stderrLines: string[] = [];
    protected readonly exitListeners: Array<(exit: AcpAgentExit) => void> = [];
    protected disposing = false;
    protected exitInfo?: AcpAgentExit;
    readonly exited: Promise<AcpAgentExit>;
    readonly spawned: Promise<void>;
    initializeResponse?: acp.InitializeResponse;

    constructor(readonly launch: AcpAgentLaunch, protected readonly handlers: AcpClientHandlers, protected readonly logger: AcpLogger) {
        // A process group of its own: agents (Gemini CLI) relaunch themselves as a child process,
        // and stopping the agent must stop all of it.
        this.child = spawnInOwnGroup(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'] });
        this.spawned = new Promise((resolve, reject) => {
            this.child.once('spawn', () => resolve());
            this.child.once('error', error => reject((error as NodeJS.ErrnoException).code === 'ENOENT' ? new AcpAgentNotFoundError(launch.command) : error));
        });
        this.spawned.catch(() => undefined);
        this.exited = new Promise(resolve => {
            const finish = (code: number | null, signal: NodeJS.Signals | null) => {
                if (this.exitInfo) {
                    return;
                }
                this.exitInfo = { code, signal, stderrTail: this.stderrLines.join('\n'), expected: this.disposing };
                resolve(this.exitInfo);
                this.exitListeners.splice(0).forEach(listener => listener(this.exitInfo!));
            };
            this.child.once('exit', finish);
            this.child.once('error', () => finish(null, null));
        });
        readline.createInterface({ input: this.child.stderr! }).on('line', line => {
            this.stderrLines.push(line);
            if (this.stderrLines.length > STDERR_TAIL_LINES) {
                this.stderrLines.shift();
            }
            this.logger.debug(`agent stderr: ${line}`);
        });
        // The SDK answers a line that is not JSON with a parse error to the agent; we also log it, with the line.
        const forSdk = new PassThrough();
        const forLog = new PassThrough();
        this.child.stdout!.pipe(forSdk);
        this.child.stdout!.pipe(forLog);
        readline.createInterface({ input: forLog }).on('line', line => {
            if (line.trim() && !looksLikeJsonObject(line)) {
                this.logger.warn(`The agent wrote a line that is not a JSON-RPC message; ignored: ${line.slice(0, 200)}`);
            } else if (line.trim()) {
                this.noticeUnsupportedRequest(line);
            }
        });
        this.child.stdin!.on('error', error => this.logger.debug(`agent stdin: ${error.message}`));
        const stream = acpSdk().ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(forSdk) as ReadableStream<Uint8Array>);
        this.connection = this.createClient().connect(stream);
        void this.exited.then(() => this.connection.close(new Error(this.describeExit())));
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

    protected createClient(): acp.ClientApp {
        const h = this.handlers;
        const methods = acpSdk().methods.client;
        this.servedMethods.add(methods.session.requestPermission);
        if (h.readTextFile) {
            this.servedMethods.add(methods.fs.readTextFile);
        }
        if (h.writeTextFile) {
            this.servedMethods.add(methods.fs.writeTextFile);
        }
        if (h.createTerminal) {
            [methods.terminal.create, methods.terminal.output, methods.terminal.waitForExit, methods.terminal.kill, methods.terminal.release]
                .forEach(method => this.servedMethods.add(method));
        }
        const app = acpSdk().client({ name: 'theia-acp-client' })
            .onNotification(acpSdk().methods.client.session.update, ({ params }) => h.sessionUpdate(params))
            .onRequest(acpSdk().methods.client.session.requestPermission, ({ params, signal }) => h.requestPermission(params, signal));
        if (h.readTextFile) {
            app.onRequest(acpSdk().methods.client.fs.readTextFile, ({ params }) => h.readTextFile!(params));
        }
        if (h.writeTextFile) {
            app.onRequest(acpSdk().methods.client.fs.writeTextFile, async ({ params }) => {
                await h.writeTextFile!(params);
                return {};
            });
        }
        if (h.createTerminal) {
            app.onRequest(acpSdk().methods.client.terminal.create, ({ params }) => h.createTerminal!(params))
                .onRequest(acpSdk().methods.client.terminal.output, ({ params }) => h.terminalOutput!(params))
                .onRequest(acpSdk().methods.client.terminal.waitForExit, ({ params, signal }) => h.waitForTerminalExit!(params, signal))
                .onRequest(acpSdk().methods.client.terminal.kill, async ({ params }) => {
                    await h.killTerminal!(params);
                    return {};
                })
                .onRequest(acpSdk().methods.client.terminal.release, async ({ params }) => {
                    await h.releaseTerminal!(params);
                    return {};
                });
        }
        return app;
    }

    /** The capabilities matching the handlers given: advertise only what is answered. */
    get clientCapabilities(): acp.ClientCapabilities {
        return {
            fs: { readTextFile: !!this.handlers.readTextFile, writeTextFile: !!this.handlers.writeTextFile },
            terminal: !!this.handlers.createTerminal
        };
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
        return this.child.pid;
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

    setModel(sessionId: string, modelId: string): Promise<unknown> {
        return this.race(this.agent.request(SET_MODEL_METHOD, { sessionId, modelId }));
    }

    /** A request to an agent that dies answers with the exit, not a hang. */
    protected async race<T>(request: Promise<T>): Promise<T> {
        try {
            return await Promise.race([request, this.exited.then(() => Promise.reject(new Error(this.describeExit())))]);
        } catch (error) {
            // The SDK sees stdout close before Node reports the exit: wait a moment for the exit's details.
            if (!this.exitInfo && this.child.stdout?.readableEnded) {
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
        const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
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
        this.child.stdin?.end();
        const timers = [setTimeout(() => this.killGroup('SIGTERM'), EOF_GRACE_MS), setTimeout(() => this.killGroup('SIGKILL'), EXIT_GRACE_MS)];
        await this.exited;
        timers.forEach(clearTimeout);
        // The launcher may exit before the process it relaunched: make sure the group is gone.
        this.killGroup('SIGKILL');
    }

    protected killGroup(signal: NodeJS.Signals): void {
        signalProcessGroup(this.child, signal);
    }
}

/**
 * A cheap shape check, not a parse: the SDK parses every line anyway (and answers a broken one
 * with a parse error); this only spots the chatter some agents print to stdout, to log it.
 */
function looksLikeJsonObject(line: string): boolean {
    const trimmed = line.trim();
    return trimmed.startsWith('{') && trimmed.endsWith('}');
}
