import * as fs from 'fs';
import * as path from 'path';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { createAuthToken, CliFlavour, DiscoveryEndpoint } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { StdioConfig, IdeContext, CliFlavourId, ClaudeAtMentioned, ClaudeAtMentionedSchema, MCP_ENDPOINT_PATH } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { describeError, formatZodIssues, IdeTransport } from '@theia-cli-companion/cli-process/lib/common';
import { CliSessionInfo, CompanionEvent, IdeCompanionFrontendClient, SessionCredential, WindowCompanionStatus } from '../common/ide-companion-protocol';
import { Disposable } from '@theia/core/lib/common/disposable';
import { DiffReviewManager } from './diff-review-manager';
import { IdeContextTools, fileUriInWorkspace } from './ide-context-tools';
import { WindowEditorState } from '../common/open-editors-model';
import { ideContextFromEditorState, withoutActiveEditor } from './ide-context-from-editor-state';
import { CompanionLogger } from './companion-logger';
import { CompanionMcpServer } from './companion-mcp-server';
import { DiscoveryFiles } from './discovery-files';
import { FLAVOUR_ENDPOINTS } from './flavour-endpoints';
import { McpEndpoint } from './mcp-endpoint';
import { createStreamableHttpEndpoint } from './streamable-http-endpoint';
import { WindowEndpointServices } from './window-endpoint-services';
import { WindowEventLog } from './window-event-log';

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

/**
 * Everything one Theia window offers the CLIs: its MCP endpoints (one per transport its CLIs use),
 * its discovery files and the terminal variables that point a CLI at it. Created by the registry,
 * which decides when it lives and dies. Nothing here depends on which CLI a flavour is: what differs
 * is in the flavours (discovery files, terminal variables) and the endpoints (wire, tools).
 */
export class WindowCompanion {
    /** The window's Streamable HTTP endpoint: Gemini CLI's and Qwen Code's, and its ACP agents'. */
    readonly server: CompanionMcpServer;
    /** Every endpoint of the window, by transport (the Streamable HTTP one included). */
    protected readonly endpoints = new Map<IdeTransport, McpEndpoint>();
    readonly log: WindowEventLog;
    /** One secret per advertised flavour; a flavour that is turned off loses its secret. */
    protected readonly authTokens = new Map<CliFlavourId, string>();
    /** Who holds each flavour's secret: one object per flavour, so sessions of a flavour can be found by it. */
    protected readonly flavourCredentials = new Map<CliFlavourId, SessionCredential>();
    /** Secrets handed to ACP agents this window started, one per agent session. */
    protected readonly agentTokens = new Map<SessionCredential, string>();
    protected readonly discoveryFiles: DiscoveryFiles;
    protected roots: string[] = [];
    /** The last context the window reported; the IDE tools answer from it. */
    protected context?: IdeContext;

    protected readonly onDidChangeStatusEmitter = new Emitter<WindowCompanionStatus>();
    readonly onDidChangeStatus: Event<WindowCompanionStatus> = this.onDidChangeStatusEmitter.event;

    readonly diffs: DiffReviewManager;
    protected frontend?: IdeCompanionFrontendClient;

    constructor(protected readonly options: WindowCompanionOptions) {
        this.log = new WindowEventLog(options.logger);
        const frontend = () => this.frontend;
        const roots = () => this.roots;
        this.diffs = new DiffReviewManager({ sessions: () => this.connectedSessions, logger: this.log, frontend, roots });
        const services: WindowEndpointServices = {
            logger: this.log, frontend, roots, context: () => this.context, diffs: this.diffs,
            contextTools: new IdeContextTools({ logger: this.log, frontend, roots, context: () => this.context }),
            credentials: transport => this.credentialsFor(transport)
        };
        this.server = createStreamableHttpEndpoint(services, { streamGraceMs: options.streamGraceMs, idleSessionMs: options.idleSessionMs });
        this.endpoints.set(this.server.transport, this.server);
        for (const flavour of options.flavours) {
            if (!this.endpoints.has(flavour.transport) && flavour.transport !== this.server.transport) {
                this.endpoints.set(flavour.transport, FLAVOUR_ENDPOINTS[flavour.transport](services));
            }
        }
        this.discoveryFiles = new DiscoveryFiles(options.stdioFor);
        for (const endpoint of this.endpoints.values()) {
            endpoint.onDidChangeSessions(() => {
                this.diffs.dropOrphans();
                this.fireStatusChanged();
            });
        }
        this.diffs.onDidChange(() => this.fireStatusChanged());
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
        for (const endpoint of this.endpoints.values()) {
            await endpoint.start();
        }
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
        const turnedOff = (credential: SessionCredential) => !!credential.flavour && removed.includes(credential.flavour);
        await Promise.all([...this.endpoints.values()].map(endpoint => endpoint.closeSessionsWhere(turnedOff)));
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

    /** Every secret the endpoint of a transport accepts now, each with who holds it: a flavour's opens its own endpoint only. */
    protected credentialsFor(transport: IdeTransport): Map<SessionCredential, string> {
        const credentials = new Map(transport === this.server.transport ? this.agentTokens : []);
        for (const flavour of this.advertisedFlavours) {
            if (flavour.transport === transport) {
                credentials.set(this.credentialOf(flavour), this.authTokens.get(flavour.id)!);
            }
        }
        return credentials;
    }

    protected credentialOf(flavour: CliFlavour): SessionCredential {
        let credential = this.flavourCredentials.get(flavour.id);
        if (!credential) {
            credential = Object.freeze({ flavour: flavour.id, label: flavour.displayName });
            this.flavourCredentials.set(flavour.id, credential);
        }
        return credential;
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

    /** Validates the browser's state and tells every endpoint, each of which tells its sessions what changed for them. */
    async setEditorState(state: WindowEditorState): Promise<void> {
        await this.publishEditor(ideContextFromEditorState(state), state);
    }

    protected async publishEditor(context: IdeContext, state?: WindowEditorState): Promise<void> {
        this.context = context;
        await Promise.all([...this.endpoints.values()].map(endpoint => endpoint.publishEditor({ context, state })));
    }

    /**
     * "Send Selection to Claude Code": a file mention (0-based lines) of a workspace file to the
     * sessions of every endpoint whose CLIs take one; answers how many got it.
     */
    async sendAtMention(mention: ClaudeAtMentioned): Promise<number> {
        const parsed = ClaudeAtMentionedSchema.safeParse(mention);
        if (!parsed.success) {
            throw new Error(`Invalid mention: ${formatZodIssues(parsed.error, 'mention')}`);
        }
        await fileUriInWorkspace(parsed.data.filePath, this.roots);
        const counts = await Promise.all([...this.endpoints.values()].map(endpoint => endpoint.mention?.(parsed.data) ?? Promise.resolve(0)));
        const sessions = counts.reduce((sum, count) => sum + count, 0);
        this.log.info(`Sent ${parsed.data.filePath}`
            + `${parsed.data.lineStart !== undefined ? ` lines ${parsed.data.lineStart + 1}-${(parsed.data.lineEnd ?? parsed.data.lineStart) + 1}` : ''}`
            + ` to ${sessions} session(s)`);
        return sessions;
    }

    /** The window went away (tab closed or reloading): nobody is looking at a file any more. */
    async clearActiveEditor(): Promise<void> {
        if (this.context) {
            await this.publishEditor(withoutActiveEditor(this.context));
        }
    }

    get currentContext(): IdeContext | undefined {
        return this.context;
    }

    /** What the discovery file of this flavour advertises; its secret is empty if the flavour is off. */
    endpointFor(flavourId: CliFlavourId): DiscoveryEndpoint {
        return {
            port: this.endpointOf(flavourId).port,
            authToken: this.authTokens.get(flavourId) ?? '',
            workspaceRoots: this.roots,
            serverPid: this.options.serverPid
        };
    }

    /** The endpoint the CLIs of a flavour connect to. */
    endpointOf(flavourId: CliFlavourId): McpEndpoint {
        const flavour = this.options.flavours.find(candidate => candidate.id === flavourId);
        const endpoint = flavour && this.endpoints.get(flavour.transport);
        if (!endpoint) {
            throw new Error(`Unknown CLI flavour ${flavourId}; known: ${this.options.flavours.map(known => known.id).join(', ')}`);
        }
        return endpoint;
    }

    /** Every session of the window, on all its endpoints. */
    get connectedSessions(): CliSessionInfo[] {
        return [...this.endpoints.values()].flatMap(endpoint => endpoint.connectedSessions);
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
            sessions: this.connectedSessions,
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
        for (const endpoint of this.endpoints.values()) {
            await endpoint.stop();
        }
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
