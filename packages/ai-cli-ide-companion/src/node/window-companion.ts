import * as fs from 'fs';
import * as path from 'path';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { createAuthToken, CliFlavour, DiscoveryEndpoint } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import {
    StdioConfig, IdeContext, IdeNotificationMethod, CLI_FLAVOUR_DISPLAY_NAMES, CliFlavourId, WEBSOCKET_FLAVOUR_IDS, ClaudeAtMentioned, ClaudeAtMentionedSchema,
    ClaudeNotificationMethod, ClaudeSelectionChanged, MCP_ENDPOINT_PATH
} from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { CompanionEvent, IdeCompanionFrontendClient, SessionCredential, WindowCompanionStatus } from '../common/ide-companion-protocol';
import { Disposable } from '@theia/core/lib/common/disposable';
import { DiffReviewManager } from './diff-review-manager';
import { IdeContextTools, fileUriInWorkspace } from './ide-context-tools';
import { WindowEditorState } from '../common/open-editors-model';
import { ideContextFromEditorState, withoutActiveEditor } from './ide-context-from-editor-state';
import { CompanionLogger } from './companion-logger';
import { CompanionMcpServer } from './companion-mcp-server';
import { ClaudeIdeTools } from './claude-ide-tools';
import { ClaudeWebSocketServer } from './claude-websocket-server';
import { claudeSelectionFromEditorState } from './claude-selection';
import { DiscoveryFiles } from './discovery-files';
import { WindowEventLog } from './window-event-log';
import { describeError, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

export interface WindowCompanionOptions {
    readonly windowId: string;
    /** Every flavour the window can advertise; which of them it does is chosen at start and by setFlavours. */
    readonly flavours: readonly CliFlavour[];
    /** The backend's logger; the window's own events also go to its event log. */
    readonly logger: CompanionLogger;
    /** The PID written into the discovery files: the backend process that serves the socket. */
    readonly serverPid: number;
    readonly stdioFor?: (discoveryFile: string) => StdioConfig | undefined;
    readonly streamGraceMs?: number;
    readonly idleSessionMs?: number;
}

/** Where an ACP agent the window started reaches its server, and the secret only that agent holds. */
export interface AgentCredential {
    readonly url: string;
    readonly token: string;
    /** The agent is gone: its secret stops working and its sessions end. */
    revoke(): Promise<void>;
}

const CLAUDE_SELECTION_REPLAY_MS = 1000;

/** One credential object per flavour, so sessions of a flavour can be found by it. */
const FLAVOUR_CREDENTIALS: Readonly<Record<CliFlavourId, SessionCredential>> = {
    gemini: { flavour: 'gemini', label: CLI_FLAVOUR_DISPLAY_NAMES.gemini },
    qwen: { flavour: 'qwen', label: CLI_FLAVOUR_DISPLAY_NAMES.qwen },
    claude: { flavour: 'claude', label: CLI_FLAVOUR_DISPLAY_NAMES.claude }
};

/**
 * Everything one Theia window offers the CLIs: its MCP server, its discovery files and the terminal
 * variables that point a CLI at it. Created by the registry, which decides when it lives and dies.
 */
export class WindowCompanion {
    readonly server: CompanionMcpServer;
    /** Claude Code's endpoint: MCP over a WebSocket, on a port of its own. */
    readonly claudeServer: ClaudeWebSocketServer;
    /** The active editor's selection as Claude Code sees it, and the last one it was sent. */
    protected claudeSelection?: ClaudeSelectionChanged;
    protected latestClaudeSelection?: ClaudeSelectionChanged;
    readonly log: WindowEventLog;
    /** One secret per advertised flavour; a flavour that is turned off loses its secret. */
    protected readonly authTokens = new Map<CliFlavourId, string>();
    /** Secrets handed to ACP agents this window started, one per agent session. */
    protected readonly agentTokens = new Map<SessionCredential, string>();
    protected readonly discoveryFiles: DiscoveryFiles;
    protected roots: string[] = [];
    /** The last context pushed to the CLIs; a newly connected session gets it at once. */
    protected context?: IdeContext;
    protected contextJson = '';

    protected readonly onDidChangeStatusEmitter = new Emitter<WindowCompanionStatus>();
    readonly onDidChangeStatus: Event<WindowCompanionStatus> = this.onDidChangeStatusEmitter.event;

    readonly diffs: DiffReviewManager;
    protected readonly contextTools: IdeContextTools;
    protected readonly claudeTools: ClaudeIdeTools;
    protected frontend?: IdeCompanionFrontendClient;

    constructor(protected readonly options: WindowCompanionOptions) {
        this.log = new WindowEventLog(options.logger);
        this.server = new CompanionMcpServer({
            authTokens: () => this.credentials(), logger: this.log, streamGraceMs: options.streamGraceMs, idleSessionMs: options.idleSessionMs,
            configureSession: (mcp, sessionId, credential) => {
                this.contextTools.registerTools(mcp);
                // The diff tools are IDE mode's contract with the CLIs; an ACP agent asks permission with its own diffs.
                if (credential.flavour) {
                    this.diffs.registerTools(mcp, sessionId);
                }
            }
        });
        this.claudeServer = new ClaudeWebSocketServer({
            authToken: () => this.authTokens.get('claude'), logger: this.log,
            configureSession: (mcp, sessionId) => this.claudeTools.registerTools(mcp, sessionId)
        });
        this.diffs = new DiffReviewManager({ server: this.server, otherSessions: this.claudeServer, logger: this.log, frontend: () => this.frontend, roots: () => this.roots });
        this.contextTools = new IdeContextTools({ logger: this.log, frontend: () => this.frontend, roots: () => this.roots, context: () => this.context });
        this.claudeTools = new ClaudeIdeTools({
            logger: this.log, frontend: () => this.frontend, roots: () => this.roots, context: () => this.context, diffs: this.diffs,
            currentSelection: () => this.claudeSelection, latestSelection: () => this.latestClaudeSelection
        });
        this.claudeServer.onDidChangeSessions(() => this.fireStatusChanged());
        // Claude Code 2.1.332 drops a selection sent right after its handshake: the latest goes a moment later.
        this.claudeServer.onDidConnect(sessionId => setTimeout(() => {
            if (this.latestClaudeSelection) {
                void this.claudeServer.notify(ClaudeNotificationMethod.SELECTION_CHANGED, { ...this.latestClaudeSelection }, sessionId);
            }
        }, CLAUDE_SELECTION_REPLAY_MS).unref());
        this.discoveryFiles = new DiscoveryFiles(options.stdioFor);
        this.server.onDidChangeSessions(() => this.fireStatusChanged());
        this.diffs.onDidChange(() => this.fireStatusChanged());
        this.server.onDidOpenStream(sessionId => this.sendContextTo(sessionId));
    }

    get onDidLog(): Event<CompanionEvent> {
        return this.log.onDidLog;
    }

    get windowId(): string {
        return this.options.windowId;
    }

    /**
     * Listens, then writes the discovery files: a CLI that finds a file can always connect.
     * Advertises the given flavours (all it knows by default).
     */
    async start(rootPaths: readonly string[], flavourIds: readonly CliFlavourId[] = this.options.flavours.map(flavour => flavour.id)): Promise<void> {
        this.enableFlavours(flavourIds);
        await this.server.start();
        await this.claudeServer.start();
        await this.setRoots(rootPaths);
        this.log.info(`Window ${this.windowId}: companion server on 127.0.0.1:${this.server.port} for ${this.describeRoots()}, advertised to ${this.describeFlavours()}`);
    }

    async setRoots(rootPaths: readonly string[]): Promise<void> {
        this.roots = await resolveRoots(rootPaths, this.log);
        await this.writeDiscoveryFiles();
        this.fireStatusChanged();
    }

    /** Advertises exactly these flavours: the others' files go, and so do sessions that used their secret. */
    async setFlavours(flavourIds: readonly CliFlavourId[]): Promise<void> {
        const removed = [...this.authTokens.keys()].filter(id => !flavourIds.includes(id));
        const changed = this.enableFlavours(flavourIds);
        if (!changed) {
            return;
        }
        await this.writeDiscoveryFiles();
        await this.server.closeSessionsWhere(credential => !!credential.flavour && removed.includes(credential.flavour));
        if (removed.includes('claude')) {
            await this.claudeServer.closeAll();
        }
        this.log.info(`Window ${this.windowId}: now advertised to ${this.describeFlavours()}`);
        this.fireStatusChanged();
    }

    protected enableFlavours(flavourIds: readonly CliFlavourId[]): boolean {
        const unknown = flavourIds.filter(id => !this.options.flavours.some(flavour => flavour.id === id));
        if (unknown.length) {
            throw new Error(`Unknown CLI flavour(s): ${unknown.join(', ')}; known: ${this.options.flavours.map(flavour => flavour.id).join(', ')}`);
        }
        let changed = false;
        for (const id of [...this.authTokens.keys()]) {
            if (!flavourIds.includes(id)) {
                this.authTokens.delete(id);
                changed = true;
            }
        }
        for (const id of flavourIds) {
            if (!this.authTokens.has(id)) {
                this.authTokens.set(id, createAuthToken());
                changed = true;
            }
        }
        return changed;
    }

    /** Every secret the server accepts now, each with who holds it. */
    protected credentials(): Map<SessionCredential, string> {
        const credentials = new Map(this.agentTokens);
        // Claude Code's secret opens its WebSocket only, not the HTTP endpoint.
        this.authTokens.forEach((token, flavour) => !WEBSOCKET_FLAVOUR_IDS.includes(flavour) && credentials.set(FLAVOUR_CREDENTIALS[flavour], token));
        return credentials;
    }

    /**
     * A secret of its own for an ACP agent this window starts (handed to it in session/new, never
     * written to disk): its sessions are listed under `label`, and end when it is revoked.
     */
    issueAgentCredential(label: string): AgentCredential {
        const credential: SessionCredential = { label };
        const token = createAuthToken();
        this.agentTokens.set(credential, token);
        return {
            url: `http://127.0.0.1:${this.server.port}${MCP_ENDPOINT_PATH}`,
            token,
            revoke: async () => {
                if (this.agentTokens.delete(credential)) {
                    await this.server.closeSessionsWhere(candidate => candidate === credential);
                }
            }
        };
    }

    protected get advertisedFlavours(): CliFlavour[] {
        return this.options.flavours.filter(flavour => this.authTokens.has(flavour.id));
    }

    protected writeDiscoveryFiles(): Promise<void> {
        return this.discoveryFiles.write(this.advertisedFlavours, flavour => this.endpointFor(flavour.id));
    }

    protected fireStatusChanged(): void {
        this.onDidChangeStatusEmitter.fire(this.status);
    }

    /** The window's frontend is attached (again); diffs open there until the returned disposable runs. */
    attachFrontend(frontend: IdeCompanionFrontendClient | undefined): Disposable {
        this.frontend = frontend;
        return Disposable.create(() => {
            if (this.frontend === frontend) {
                this.frontend = undefined;
            }
        });
    }

    /** Validates the browser's state and pushes it to every session, if it changed. */
    async setEditorState(state: WindowEditorState): Promise<void> {
        await this.pushContext(ideContextFromEditorState(state));
        await this.pushClaudeSelection(claudeSelectionFromEditorState(state));
    }

    /** Claude Code hears of the active editor's selection (or cursor) as `selection_changed`, 0-based. */
    protected async pushClaudeSelection(selection: ClaudeSelectionChanged | undefined): Promise<void> {
        this.claudeSelection = selection;
        if (!selection || JSON.stringify(selection) === JSON.stringify(this.latestClaudeSelection)) {
            return;
        }
        this.latestClaudeSelection = selection;
        await this.claudeServer.notify(ClaudeNotificationMethod.SELECTION_CHANGED, { ...selection });
    }

    /**
     * "Send Selection to Claude Code": an `at_mentioned` for a workspace file (0-based lines) to the
     * window's Claude Code sessions; answers how many got it.
     */
    async sendAtMention(mention: ClaudeAtMentioned): Promise<number> {
        const parsed = ClaudeAtMentionedSchema.safeParse(mention);
        if (!parsed.success) {
            throw new Error(`Invalid mention: ${formatZodIssues(parsed.error, 'mention')}`);
        }
        await fileUriInWorkspace(parsed.data.filePath, this.roots);
        const sessions = this.claudeServer.connectedSessions.length;
        await this.claudeServer.notify(ClaudeNotificationMethod.AT_MENTIONED, { ...parsed.data });
        this.log.info(`Sent ${parsed.data.filePath}`
            + `${parsed.data.lineStart !== undefined ? ` lines ${parsed.data.lineStart + 1}-${(parsed.data.lineEnd ?? parsed.data.lineStart) + 1}` : ''}`
            + ` to ${sessions} Claude Code session(s)`);
        return sessions;
    }

    /** The window went away (tab closed or reloading): nobody is looking at a file any more. */
    async clearActiveEditor(): Promise<void> {
        if (this.context) {
            await this.pushContext(withoutActiveEditor(this.context));
        }
    }

    get currentContext(): IdeContext | undefined {
        return this.context;
    }

    protected async pushContext(context: IdeContext): Promise<void> {
        const json = JSON.stringify(context);
        if (json === this.contextJson) {
            return;
        }
        this.context = context;
        this.contextJson = json;
        await this.server.notifyAll({ method: IdeNotificationMethod.CONTEXT_UPDATE, params: context });
    }

    protected sendContextTo(sessionId: string): void {
        if (this.context) {
            this.server.notify(sessionId, { method: IdeNotificationMethod.CONTEXT_UPDATE, params: this.context })
                .catch(error => this.log.warn(`Could not send the editor context to session ${sessionId}: ${describeError(error)}`));
        }
    }

    /** What the discovery file of this flavour advertises; its secret is empty if the flavour is off. */
    endpointFor(flavourId: CliFlavourId): DiscoveryEndpoint {
        return {
            port: WEBSOCKET_FLAVOUR_IDS.includes(flavourId) ? this.claudeServer.port : this.server.port,
            authToken: this.authTokens.get(flavourId) ?? '',
            workspaceRoots: this.roots,
            serverPid: this.options.serverPid
        };
    }

    get discoveryFilePaths(): ReadonlyMap<string, string> {
        return this.discoveryFiles.files;
    }

    get status(): WindowCompanionStatus {
        return {
            windowId: this.windowId,
            port: this.server.port,
            flavours: this.advertisedFlavours.map(flavour => flavour.id),
            workspaceRoots: [...this.roots],
            sessions: [...this.server.connectedSessions, ...this.claudeServer.connectedSessions],
            discoveryFiles: [...this.discoveryFiles.files].map(([flavour, file]) => ({ flavour: flavour as CliFlavourId, path: file })),
            pendingDiffs: this.diffs.openDiffs,
            terminalEnvironment: this.terminalEnvironment()
        };
    }

    terminalEnvironment(): Record<string, string> {
        return Object.assign({}, ...this.advertisedFlavours.map(flavour => flavour.terminalEnvironment(this.endpointFor(flavour.id))));
    }

    /** Removes the discovery files first and synchronously, so even an exiting process leaves none. */
    async stop(): Promise<void> {
        this.discoveryFiles.removeAllSync();
        await this.diffs.rejectAll('the window closed');
        await this.server.stop();
        await this.claudeServer.stop();
        this.log.info(`Window ${this.windowId}: companion server stopped`);
        this.onDidChangeStatusEmitter.dispose();
        this.log.dispose();
    }

    removeDiscoveryFilesSync(): void {
        this.discoveryFiles.removeAllSync();
    }

    protected describeFlavours(): string {
        return this.advertisedFlavours.map(flavour => flavour.displayName).join(', ') || 'no CLI';
    }

    protected describeRoots(): string {
        return this.roots.length ? this.roots.join(', ') : 'no folder';
    }
}

/** Realpath'd roots, as the CLIs compare them; roots that do not exist are left out, with a warning. */
async function resolveRoots(rootPaths: readonly string[], logger: CompanionLogger): Promise<string[]> {
    const resolved: string[] = [];
    for (const root of rootPaths) {
        try {
            const real = await fs.promises.realpath(root);
            if (real.includes(path.delimiter)) {
                // The CLIs split workspacePath on the delimiter: such a root would advertise two wrong ones.
                logger.warn(`Workspace root ${real} contains '${path.delimiter}' and cannot be advertised to CLIs`);
            } else if (!resolved.includes(real)) {
                resolved.push(real);
            }
        } catch (error) {
            logger.warn(`Workspace root ${root} is not advertised to CLIs: ${describeError(error)}`);
        }
    }
    return resolved;
}
