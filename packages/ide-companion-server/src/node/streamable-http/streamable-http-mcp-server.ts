import { randomUUID } from 'crypto';
import express = require('express');
import type { Request, Response, NextFunction } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Emitter, Event } from 'vscode-jsonrpc';
import {
    COMPANION_SERVER_INFO, MCP_ENDPOINT_PATH, MCP_MAX_REQUEST_BYTES, IdeContext, IdeNotification, IdeNotificationMethod, IdeNotificationSchema
} from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { isAuthorizedBearer } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { CliSessionInfo, SessionCredential } from '../../common/window-protocol';
import { sanitizeClientText } from '../../common/client-text';
import { WindowLogger } from '../window-logger';
import { createMcpRequestGuard, jsonRpcError } from '../guards/mcp-request-guard';
import { LoopbackServer } from '../guards/loopback-server';
import { DEFAULT_MAX_SESSIONS, EditorSnapshot, McpEndpoint } from '../mcp-endpoint';
import { Refusal, RefusalLog } from '../guards/refusal-log';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { timingMark } from '@theia-cli-companion/cli-process/lib/node';

export interface StreamableHttpMcpServerOptions {
    /** The secret of each credential (advertised CLI flavours, ACP agents); read on every request, so it may change. */
    readonly authTokens: () => ReadonlyMap<SessionCredential, string>;
    readonly logger: WindowLogger;
    /** Largest accepted JSON body; larger ones get 413. Diffs of multi-MB files must fit. */
    readonly maxBodyBytes?: number;
    /** How long a session may be without its SSE stream before it counts as gone. */
    readonly streamGraceMs?: number;
    /**
     * How long a session that never opened an SSE stream may go without a request. The CLIs always
     * open one; without this limit, sessions that were initialized and then abandoned would pile up.
     */
    readonly idleSessionMs?: number;
    /** How many sessions may be open at once; an initialize beyond that gets 503. */
    readonly maxSessions?: number;
    /** Registers the tools of one MCP session; called once per session. */
    readonly configureSession?: (server: McpServer, sessionId: string, credential: SessionCredential) => void;
}

interface Session {
    readonly id: string;
    readonly credential: SessionCredential;
    /** The secret that opened the session: the only one it answers. */
    readonly token: string;
    readonly transport: StreamableHTTPServerTransport;
    readonly mcp: McpServer;
    info?: CliSessionInfo;
    openStreams: number;
    streamGraceTimer?: NodeJS.Timeout;
    idleTimer?: NodeJS.Timeout;
}

export const DEFAULT_MAX_BODY_BYTES = MCP_MAX_REQUEST_BYTES;
const DEFAULT_STREAM_GRACE_MS = 5000;
const DEFAULT_IDLE_SESSION_MS = 60_000;
/** Each session holds its event stream and a request or two; the rest is room for refused ones. */
const CONNECTIONS_PER_SESSION = 4;

/**
 * One window's MCP server: Streamable HTTP at /mcp on 127.0.0.1, a random port, stateful sessions,
 * and a fresh McpServer per session (a single McpServer connected to several transports loses all
 * but the last: modelcontextprotocol/typescript-sdk#961). Gemini CLI, Qwen Code and the window's ACP
 * agents connect here; each session hears of the editor as `ide/contextUpdate`.
 */
export class StreamableHttpMcpServer implements McpEndpoint {
    readonly transport = 'mcp-streamable-http';
    protected readonly sessions = new Map<string, Session>();
    /** Transports of initialize requests under way: they count against the session limit too. */
    protected readonly initializing = new Set<StreamableHTTPServerTransport>();
    protected readonly refusals = new RefusalLog(this.options.logger, { one: 'a request', many: 'requests' });
    protected httpServer?: LoopbackServer;
    protected _port = 0;
    protected stopped = false;

    protected readonly onDidChangeSessionsEmitter = new Emitter<readonly CliSessionInfo[]>();
    readonly onDidChangeSessions: Event<readonly CliSessionInfo[]> = this.onDidChangeSessionsEmitter.event;
    /** Fires when a session's SSE stream opens: the moment it can first receive notifications. */
    protected readonly onDidOpenStreamEmitter = new Emitter<string>();
    readonly onDidOpenStream: Event<string> = this.onDidOpenStreamEmitter.event;

    /** The last context sent; a session gets it as soon as its event stream opens. */
    protected context?: IdeContext;
    protected contextJson = '';

    constructor(protected readonly options: StreamableHttpMcpServerOptions) { }

    get port(): number {
        return this._port;
    }

    protected get maxSessions(): number {
        return this.options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    }

    get connectedSessions(): CliSessionInfo[] {
        return [...this.sessions.values()].flatMap(session => session.info ? [session.info] : []);
    }

    async start(): Promise<number> {
        const app = express();
        app.disable('x-powered-by');
        app.use(createMcpRequestGuard({
            authTokens: this.options.authTokens,
            port: () => this._port,
            onRefused: refusal => this.refusals.refused(refusal)
        }));
        app.use(express.json({ limit: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES }));
        app.post(MCP_ENDPOINT_PATH, (req, res) => this.handlePost(req, res));
        app.get(MCP_ENDPOINT_PATH, (req, res) => this.handleSessionRequest(req, res, true));
        app.delete(MCP_ENDPOINT_PATH, (req, res) => this.handleSessionRequest(req, res, false));
        app.all('*', (_req, res) => { res.status(404).json(jsonRpcError(-32601, `Not found: the MCP endpoint is ${MCP_ENDPOINT_PATH}`)); });
        app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => this.handleError(error, res));

        const server = new LoopbackServer(app, { maxConnections: this.maxSessions * CONNECTIONS_PER_SESSION });
        this._port = await server.listen();
        this.httpServer = server;
        return this._port;
    }

    async publishEditor({ context }: EditorSnapshot): Promise<void> {
        const json = JSON.stringify(context);
        if (json === this.contextJson) {
            return;
        }
        this.context = context;
        this.contextJson = json;
        timingMark('context:to-sessions');
        await this.notifyAll({ method: IdeNotificationMethod.CONTEXT_UPDATE, params: context });
        timingMark('context:sent');
    }

    protected sendContextTo(sessionId: string): void {
        if (this.context) {
            this.notify(sessionId, { method: IdeNotificationMethod.CONTEXT_UPDATE, params: this.context })
                .catch(error => this.options.logger.warn(`Could not send the editor context to session ${sessionId}: ${describeError(error)}`));
        }
    }

    /** Sends a validated notification to every session; a session that fails does not affect the others. */
    async notifyAll(notification: IdeNotification): Promise<void> {
        const checked = IdeNotificationSchema.parse(notification);
        await Promise.all([...this.sessions.keys()].map(id => this.sendTo(id, checked)));
    }

    async notify(sessionId: string, notification: IdeNotification): Promise<boolean> {
        return this.sendTo(sessionId, IdeNotificationSchema.parse(notification));
    }

    protected async sendTo(sessionId: string, notification: IdeNotification): Promise<boolean> {
        const session = this.sessions.get(sessionId);
        if (!session?.info) {
            return false;
        }
        try {
            await session.mcp.server.notification(notification);
            return true;
        } catch (error) {
            this.options.logger.warn(`Could not send ${notification.method} to session ${sessionId}: ${describeError(error)}`);
            return false;
        }
    }

    protected async handlePost(req: Request, res: Response): Promise<void> {
        if (typeof req.headers['mcp-session-id'] === 'string') {
            const session = this.sessionFor(req, res);
            if (session) {
                this.armIdleTimer(session);
                await session.transport.handleRequest(req, res, req.body);
            }
            return;
        }
        if (!isInitializeRequest(req.body)) {
            res.status(400).json(jsonRpcError(-32600, 'Bad Request: no Mcp-Session-Id header, and the body is not an initialize request'));
            return;
        }
        if (this.stopped) {
            res.status(503).json(jsonRpcError(-32000, 'The window is closing'));
            return;
        }
        if (this.sessions.size + this.initializing.size >= this.maxSessions) {
            this.refuse(res, {
                status: 503, kind: 'session limit',
                reason: `Service Unavailable: this window serves at most ${this.maxSessions} sessions at once; end one, or try again later`
            });
            return;
        }
        const transport = this.createSessionTransport(res.locals.credential, res.locals.token);
        this.initializing.add(transport);
        try {
            await transport.handleRequest(req, res, req.body);
        } finally {
            this.initializing.delete(transport);
        }
    }

    /**
     * The session a request names, if the request may use it; otherwise answers why not. A session
     * answers only the secret that opened it: its id is no secret (the window's log and diagnostic
     * report show it), and another credential of the window must not read its notifications, use
     * its diffs or end it. Compared in constant time, like every token.
     */
    protected sessionFor(req: Request, res: Response): Session | undefined {
        const sessionId = req.headers['mcp-session-id'];
        if (typeof sessionId !== 'string') {
            res.status(400).json(jsonRpcError(-32001, 'Bad Request: Mcp-Session-Id header is required'));
            return undefined;
        }
        const session = this.sessions.get(sessionId);
        if (!session) {
            res.status(404).json(jsonRpcError(-32001, `Session not found: ${sessionId} is unknown or closed; initialize a new session`));
            return undefined;
        }
        if (!isAuthorizedBearer(req.headers.authorization, session.token)) {
            this.refuse(res, {
                status: 403, kind: 'session of another credential',
                reason: `Forbidden: session ${session.id} was opened with another credential; use the token that opened it, or initialize a new session`
            });
            return undefined;
        }
        return session;
    }

    protected refuse(res: Response, refusal: Refusal): void {
        this.refusals.refused(refusal);
        res.status(refusal.status).json(jsonRpcError(refusal.status >= 500 ? -32000 : -32001, refusal.reason));
    }

    protected createSessionTransport(credential: SessionCredential, token: string): StreamableHTTPServerTransport {
        const mcp = new McpServer({ ...COMPANION_SERVER_INFO }, { capabilities: { tools: { listChanged: false }, logging: {} } });
        let session: Session | undefined;
        const transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: id => {
                session = { id, credential, token, transport, mcp, openStreams: 0 };
                this.initializing.delete(transport);
                this.sessions.set(id, session);
                this.armIdleTimer(session);
                this.options.configureSession?.(mcp, id, credential);
            }
        });
        mcp.server.oninitialized = () => {
            if (!session) {
                return;
            }
            const client = mcp.server.getClientVersion();
            session.info = {
                sessionId: session.id,
                flavour: credential.flavour,
                clientLabel: credential.label,
                clientName: sanitizeClientText(client?.name ?? '') || 'unknown client',
                clientVersion: sanitizeClientText(client?.version ?? ''),
                connectedAt: Date.now()
            };
            this.options.logger.info(`CLI session ${session.id} connected: ${session.info.clientName} ${session.info.clientVersion} `
                + `(${credential.flavour ? `with the ${credential.flavour} discovery token` : `as ${credential.label}`})`);
            this.fireSessionsChanged();
        };
        transport.onclose = () => {
            if (session && this.sessions.delete(session.id)) {
                clearTimeout(session.streamGraceTimer);
                clearTimeout(session.idleTimer);
                this.options.logger.info(`CLI session ${session.id} disconnected`);
                this.fireSessionsChanged();
            }
        };
        mcp.connect(transport).catch(error => this.options.logger.error(`Could not start an MCP session: ${describeError(error)}`));
        return transport;
    }

    protected async handleSessionRequest(req: Request, res: Response, isStream: boolean): Promise<void> {
        const session = this.sessionFor(req, res);
        if (!session) {
            return;
        }
        if (isStream) {
            this.trackStream(session, res);
        }
        await session.transport.handleRequest(req, res);
    }

    /**
     * A CLI that dies never says goodbye; its SSE stream just closes. A session whose stream stays
     * closed for the grace period is ended so the window stops listing it and its diffs can close.
     */
    protected trackStream(session: Session, res: Response): void {
        clearTimeout(session.streamGraceTimer);
        clearTimeout(session.idleTimer);
        session.openStreams++;
        // The transport writes the SSE headers synchronously inside handleRequest; notify right after.
        setImmediate(() => {
            if (res.statusCode === 200) {
                this.sendContextTo(session.id);
                this.onDidOpenStreamEmitter.fire(session.id);
            }
        });
        res.once('close', () => {
            session.openStreams--;
            if (session.openStreams === 0 && this.sessions.has(session.id) && !this.stopped) {
                session.streamGraceTimer = setTimeout(() => {
                    if (session.openStreams === 0 && this.sessions.has(session.id)) {
                        this.options.logger.info(`CLI session ${session.id} lost its event stream; closing it`);
                        session.transport.close().catch(() => undefined);
                    }
                }, this.options.streamGraceMs ?? DEFAULT_STREAM_GRACE_MS);
            }
        });
    }

    /** Ends a session that has no event stream and receives no requests for a while. */
    protected armIdleTimer(session: Session): void {
        clearTimeout(session.idleTimer);
        if (session.openStreams > 0) {
            return;
        }
        session.idleTimer = setTimeout(() => {
            if (session.openStreams === 0 && this.sessions.has(session.id)) {
                this.options.logger.info(`CLI session ${session.id} has no event stream and sent nothing for a while; closing it`);
                session.transport.close().catch(() => undefined);
            }
        }, this.options.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS);
    }

    protected handleError(error: unknown, res: Response): void {
        const type = (error as { type?: string }).type;
        if (res.headersSent) {
            return;
        }
        if (type === 'entity.too.large') {
            res.status(413).json(jsonRpcError(-32600, `Payload Too Large: the body exceeds ${this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes`));
        } else if (type === 'entity.parse.failed') {
            res.status(400).json(jsonRpcError(-32700, 'Parse error: the body is not valid JSON'));
        } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
            res.status(415).json(jsonRpcError(-32600, `Unsupported Media Type: ${describeError(error)}`));
        } else {
            this.options.logger.error(`MCP request failed: ${describeError(error)}`);
            res.status(500).json(jsonRpcError(-32603, 'Internal error'));
        }
    }

    async closeSessionsWhere(match: (credential: SessionCredential) => boolean): Promise<void> {
        const sessions = [...this.sessions.values()].filter(session => match(session.credential));
        await Promise.all(sessions.map(session => session.transport.close().catch(() => undefined)));
    }

    protected fireSessionsChanged(): void {
        this.onDidChangeSessionsEmitter.fire(this.connectedSessions);
    }

    async stop(): Promise<void> {
        if (this.stopped) {
            return;
        }
        this.stopped = true;
        const sessions = [...this.sessions.values()];
        this.sessions.clear();
        await Promise.all(sessions.map(session => session.transport.close().catch(() => undefined)));
        sessions.forEach(session => {
            clearTimeout(session.streamGraceTimer);
            clearTimeout(session.idleTimer);
        });
        if (sessions.length) {
            this.fireSessionsChanged();
        }
        // SSE streams are long-lived: closing ends them rather than waiting for the clients.
        await this.httpServer?.close();
        this.refusals.dispose();
        this.onDidChangeSessionsEmitter.dispose();
        this.onDidOpenStreamEmitter.dispose();
    }
}
