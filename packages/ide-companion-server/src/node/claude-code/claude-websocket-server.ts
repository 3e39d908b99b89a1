import * as http from 'http';
import { Socket } from 'net';
import { randomUUID } from 'crypto';
import { WebSocket, WebSocketServer } from 'ws';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Emitter, Event } from 'vscode-jsonrpc';
import { tokensEqual } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import {
    COMPANION_SERVER_INFO, CLAUDE_CODE_AUTH_HEADER, CLAUDE_CODE_SUBPROTOCOL, ClaudeAtMentioned, ClaudeIdeConnectedSchema, ClaudeNotificationMethod, ClaudeSelectionChanged
} from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { CliSessionInfo, SessionCredential, sanitizeClientText } from '../../common';
import { claudeSelectionFromEditorState } from './claude-selection';
import type { WindowLogger } from '../window-logger';
import { LoopbackServer } from '../guards/loopback-server';
import { DEFAULT_MAX_SESSIONS, EditorSnapshot, McpEndpoint } from '../mcp-endpoint';
import { describeHost, isAllowedHost } from '../guards/mcp-request-guard';
import { Refusal, RefusalLog } from '../guards/refusal-log';
import { WebSocketServerTransport } from './websocket-server-transport';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';

export interface ClaudeWebSocketServerOptions {
    /** The secrets of the lock files, each with who holds it; empty while no such CLI is turned on (every upgrade is refused). */
    readonly authTokens: () => ReadonlyMap<SessionCredential, string>;
    readonly logger: WindowLogger;
    /** Registers the tools of one session; called once per connection. */
    readonly configureSession: (server: McpServer, sessionId: string, credential: SessionCredential) => void;
    /** Largest accepted frame; openDiff carries whole files. */
    readonly maxPayloadBytes?: number;
    /** How many sessions may be connected at once; an upgrade beyond that gets 503. */
    readonly maxSessions?: number;
}

interface ClaudeSession {
    readonly id: string;
    readonly credential: SessionCredential;
    readonly mcp: McpServer;
    readonly transport: WebSocketServerTransport;
    info?: CliSessionInfo;
}

const DEFAULT_MAX_PAYLOAD = 32 * 1024 * 1024;
/** Claude Code 2.1.332 drops a selection sent right after its handshake: the latest goes again a moment later. */
const SELECTION_REPLAY_MS = 1000;
/** A session is one socket; the rest is room for upgrades under way and refused ones. */
const CONNECTIONS_PER_SESSION = 2;

/**
 * One window's endpoint for Claude Code: MCP over a WebSocket at ws://127.0.0.1:<port> (random
 * port), subprotocol `mcp`, the lock file's secret in `X-Claude-Code-Ide-Authorization`. Upgrades
 * from web pages (an Origin), foreign Hosts, without `mcp` or with a wrong secret are refused before
 * any WebSocket exists.
 */
export class ClaudeWebSocketServer implements McpEndpoint {
    readonly transport = 'claude-code-websocket';
    protected httpServer?: LoopbackServer;
    protected readonly wss = new WebSocketServer({
        noServer: true,
        maxPayload: this.options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD,
        handleProtocols: protocols => protocols.has(CLAUDE_CODE_SUBPROTOCOL) ? CLAUDE_CODE_SUBPROTOCOL : false
    });
    protected readonly sessions = new Map<string, ClaudeSession>();
    protected readonly refusals = new RefusalLog(this.options.logger, { one: 'a Claude Code connection', many: 'Claude Code connections' });
    protected _port = 0;
    protected stopped = false;
    protected readonly onDidChangeSessionsEmitter = new Emitter<readonly CliSessionInfo[]>();
    readonly onDidChangeSessions: Event<readonly CliSessionInfo[]> = this.onDidChangeSessionsEmitter.event;
    /** A session said `ide_connected`: the CLI is ready for the IDE's notifications. */
    protected readonly onDidConnectEmitter = new Emitter<string>();
    readonly onDidConnect: Event<string> = this.onDidConnectEmitter.event;
    /** The active editor's selection as Claude Code sees it (undefined: no file editor active). */
    protected selection?: ClaudeSelectionChanged;
    /** The last selection sent, kept while the editor has no focus. */
    protected sentSelection?: ClaudeSelectionChanged;

    constructor(protected readonly options: ClaudeWebSocketServerOptions) {
        this.onDidConnect(sessionId => setTimeout(() => {
            if (this.sentSelection) {
                void this.notify(ClaudeNotificationMethod.SELECTION_CHANGED, { ...this.sentSelection }, sessionId);
            }
        }, SELECTION_REPLAY_MS).unref());
    }

    get currentSelection(): ClaudeSelectionChanged | undefined {
        return this.selection;
    }

    get latestSelection(): ClaudeSelectionChanged | undefined {
        return this.sentSelection;
    }

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
        const server = new LoopbackServer((_req, res) => {
            res.writeHead(426, { 'Content-Type': 'text/plain', Upgrade: 'websocket' }).end('Upgrade Required: this is a WebSocket MCP endpoint');
        }, { maxConnections: this.maxSessions * CONNECTIONS_PER_SESSION });
        server.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket as Socket, head));
        this._port = await server.listen();
        this.httpServer = server;
        return this._port;
    }

    /** Claude Code hears of the active editor's selection (or cursor) as `selection_changed`, 0-based. */
    async publishEditor({ state }: EditorSnapshot): Promise<void> {
        if (!state) {
            return;
        }
        const selection = claudeSelectionFromEditorState(state);
        this.selection = selection;
        if (!selection || JSON.stringify(selection) === JSON.stringify(this.sentSelection)) {
            return;
        }
        this.sentSelection = selection;
        await this.notify(ClaudeNotificationMethod.SELECTION_CHANGED, { ...selection });
    }

    /** "Send Selection to Claude Code": an `at_mentioned` (already validated) to every session; answers how many got it. */
    async mention(mention: ClaudeAtMentioned): Promise<number> {
        const sessions = this.connectedSessions.length;
        await this.notify(ClaudeNotificationMethod.AT_MENTIONED, { ...mention });
        return sessions;
    }

    protected upgrade(req: http.IncomingMessage, socket: Socket, head: Buffer): void {
        const verdict = this.authenticate(req);
        if ('status' in verdict) {
            this.refusals.refused(verdict);
            socket.end(`HTTP/1.1 ${verdict.status} ${http.STATUS_CODES[verdict.status]}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${verdict.reason}\n`);
            return;
        }
        // The session is added synchronously inside handleUpgrade, so the next upgrade counts it.
        this.wss.handleUpgrade(req, socket, head, ws => this.accept(ws, verdict.credential));
    }

    /** Who an upgrade request comes from, or why it is refused (never quoting a secret). */
    protected authenticate(req: http.IncomingMessage): Refusal | { credential: SessionCredential } {
        if (this.stopped) {
            return { status: 503, kind: 'closing', reason: 'The window is closing' };
        }
        if (req.headers.origin !== undefined) {
            return { status: 403, kind: 'Origin', reason: 'Forbidden: connections from web pages (Origin header present) are not accepted' };
        }
        if (!isAllowedHost(req.headers.host, this._port)) {
            return { status: 403, kind: 'Host', reason: `Forbidden: ${describeHost(req.headers.host)} is not this server's loopback address` };
        }
        const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map(protocol => protocol.trim());
        if (!offered.includes(CLAUDE_CODE_SUBPROTOCOL)) {
            return { status: 400, kind: 'subprotocol', reason: `Bad Request: the WebSocket subprotocol "${CLAUDE_CODE_SUBPROTOCOL}" is required` };
        }
        const tokens = this.options.authTokens();
        const presented = req.headers[CLAUDE_CODE_AUTH_HEADER];
        if (!tokens.size) {
            return { status: 401, kind: 'turned off', reason: 'Unauthorized: IDE mode over this endpoint is turned off for this window' };
        }
        if (typeof presented !== 'string') {
            return { status: 401, kind: 'no token', reason: 'Unauthorized: missing X-Claude-Code-Ide-Authorization header' };
        }
        // Every secret is compared, so the time taken does not tell which one came close.
        let match: SessionCredential | undefined;
        tokens.forEach((token, credential) => {
            if (tokensEqual(presented, token)) {
                match = credential;
            }
        });
        if (!match) {
            return { status: 401, kind: 'invalid token', reason: 'Unauthorized: invalid token' };
        }
        // Checked after the secret: only a client that may connect learns how busy the endpoint is.
        if (this.sessions.size >= this.maxSessions) {
            return {
                status: 503, kind: 'session limit',
                reason: `Service Unavailable: this window serves at most ${this.maxSessions} sessions at once; end one, or try again later`
            };
        }
        return { credential: match };
    }

    protected accept(ws: WebSocket, credential: SessionCredential): void {
        const id = randomUUID();
        const mcp = new McpServer({ ...COMPANION_SERVER_INFO }, { capabilities: { tools: { listChanged: false } } });
        const transport = new WebSocketServerTransport(ws, id);
        const session: ClaudeSession = { id, credential, mcp, transport };
        this.sessions.set(id, session);
        this.options.configureSession(mcp, id, credential);
        transport.onincoming = message => {
            if ('method' in message && message.method === ClaudeNotificationMethod.IDE_CONNECTED && !('id' in message)) {
                const parsed = ClaudeIdeConnectedSchema.safeParse(message.params);
                this.options.logger.info(`Claude Code session ${id}: ide_connected${parsed.success ? ` (pid ${parsed.data.pid})` : ''}`);
                this.onDidConnectEmitter.fire(id);
            }
        };
        mcp.server.oninitialized = () => {
            const client = mcp.server.getClientVersion();
            session.info = {
                sessionId: id, flavour: credential.flavour, clientLabel: credential.label,
                clientName: sanitizeClientText(client?.name ?? '') || 'unknown client', clientVersion: sanitizeClientText(client?.version ?? ''), connectedAt: Date.now()
            };
            this.options.logger.info(`CLI session ${id} connected: ${session.info.clientName} ${session.info.clientVersion} (over the Claude Code WebSocket)`);
            this.onDidChangeSessionsEmitter.fire(this.connectedSessions);
        };
        transport.onclose = () => {
            if (this.sessions.delete(id)) {
                this.options.logger.info(`CLI session ${id} disconnected`);
                if (session.info) {
                    this.onDidChangeSessionsEmitter.fire(this.connectedSessions);
                }
            }
        };
        mcp.connect(transport).catch(error => this.options.logger.error(`Could not start a Claude Code session: ${describeError(error)}`));
    }

    /** Sends a notification to every connected session (or one); failures are logged per session. */
    async notify(method: string, params: Record<string, unknown>, sessionId?: string): Promise<void> {
        const targets = [...this.sessions.values()].filter(session => session.info && (!sessionId || session.id === sessionId));
        await Promise.all(targets.map(session => session.mcp.server.notification({ method, params })
            .catch(error => this.options.logger.warn(`Could not send ${method} to Claude Code session ${session.id}: ${describeError(error)}`))));
    }

    async closeSessionsWhere(match: (credential: SessionCredential) => boolean): Promise<void> {
        const sessions = [...this.sessions.values()].filter(session => match(session.credential));
        await Promise.all(sessions.map(session => session.transport.close().catch(() => undefined)));
    }

    async stop(): Promise<void> {
        if (this.stopped) {
            return;
        }
        this.stopped = true;
        await this.closeSessionsWhere(() => true);
        this.wss.close();
        await this.httpServer?.close();
        this.refusals.dispose();
        this.onDidChangeSessionsEmitter.dispose();
        this.onDidConnectEmitter.dispose();
    }
}
