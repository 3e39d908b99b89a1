import { AppliedChangeLedger } from './diff/applied-change-ledger';
import * as fs from 'fs';
import * as path from 'path';
import { inject, injectable, named, postConstruct } from 'inversify';
import { Contributions } from './contributions';
import { Disposable, Emitter, Event } from 'vscode-jsonrpc';
import { CliFlavour, DiscoveryEndpoint } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { writeFileWithinRoots } from '@theia-cli-companion/safe-files/lib/node';
import { IdeContext, CliFlavourId, ClaudeAtMentioned, ClaudeAtMentionedSchema, MCP_ENDPOINT_PATH } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { describeError, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { CliSessionInfo, WindowEvent, WindowEditorClient, SessionCredential, WindowServerStatus } from '../common/window-protocol';
import { DiffReviewManager } from './diff/diff-review-manager';
import { fileUriInWorkspace } from './tools/ide-context-tools';
import { WindowEditorState } from '../common/open-editors-model';
import { editorsWithinRoots, ideContextFromEditorState, withoutActiveEditor } from './ide-context-from-editor-state';
import { WindowLogger } from './window-logger';
import { StreamableHttpMcpServer } from './streamable-http/streamable-http-mcp-server';
import { DiscoveryFiles } from './discovery/discovery-files';
import { McpEndpoint } from './mcp-endpoint';
import { WindowServerOptions } from './window-server-options';
import { WindowContext } from './window-context';
import { WindowCredentials } from './guards/window-credentials';
import { WindowEventLog } from './window-event-log';

/** Where an ACP agent the window started reaches its server, and the secret only that agent holds. */
export interface AgentCredential {
    readonly url: string;
    readonly token: string;
    /** The agent is gone: its secret stops working and its sessions end. */
    revoke(): Promise<void>;
}

/**
 * Everything one Theia window offers the CLIs: its MCP endpoints (one per transport its CLIs use),
 * its discovery files and the terminal variables that point a CLI at it. Built with the rest of the
 * window's graph by `createWindowServer` (a container per window); the registry decides when it
 * lives and dies. Nothing here depends on which CLI a flavour is: what differs is in the flavours
 * (discovery files, terminal variables), the endpoints (wire, handshake) and the tool contributions.
 */
@injectable()
export class WindowServer {
    @inject(WindowServerOptions)
    protected readonly options: WindowServerOptions;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    @inject(WindowCredentials)
    protected readonly credentials: WindowCredentials;

    @inject(DiffReviewManager)
    readonly diffs: DiffReviewManager;

    /** The window's Streamable HTTP endpoint: Gemini CLI's and Qwen Code's, and its ACP agents'. */
    @inject(StreamableHttpMcpServer)
    readonly server: StreamableHttpMcpServer;

    @inject(Contributions) @named(McpEndpoint)
    protected readonly endpointProvider: Contributions<McpEndpoint>;

    /** The endpoints the window opens: the Streamable HTTP one, and one per other transport its flavours use. */
    protected endpoints: McpEndpoint[] = [];
    protected discoveryFiles: DiscoveryFiles;
    protected readonly toDispose: Disposable[] = [];
    /** The browser's last editor state as it came, before leaving out editors outside the folders, which may change. */
    protected editorState?: WindowEditorState;
    /** Counts editor states: an older one whose paths took longer to check is not published over a newer one. */
    protected editorStates = 0;
    /** Whether each open editor's file lies inside the current roots (see editorsWithinRoots); cleared when they change. */
    protected readonly editorVerdicts = new Map<string, Promise<boolean>>();

    protected readonly onDidChangeStatusEmitter = new Emitter<WindowServerStatus>();
    readonly onDidChangeStatus: Event<WindowServerStatus> = this.onDidChangeStatusEmitter.event;

    @postConstruct()
    protected init(): void {
        const transports = new Set([this.server.transport, ...this.options.flavours.map(flavour => flavour.transport)]);
        this.endpoints = this.endpointProvider.getContributions().filter(endpoint => transports.has(endpoint.transport));
        const missing = [...transports].filter(transport => !this.endpoints.some(endpoint => endpoint.transport === transport));
        if (missing.length) {
            throw new Error(`No endpoint serves the transport(s) ${missing.join(', ')}`);
        }
        this.discoveryFiles = new DiscoveryFiles(this.options.stdioFor);
        for (const endpoint of this.endpoints) {
            this.toDispose.push(endpoint.onDidChangeSessions(() => {
                this.diffs.dropOrphans();
                this.fireStatusChanged();
            }));
        }
        this.toDispose.push(this.diffs.onDidChange(() => this.fireStatusChanged()));
        this.toDispose.push(this.onDidChangeStatusEmitter);
    }

    /** The bytes from before changes the user did not review, for Undo (see AppliedChangeLedger). */
    readonly applied = new AppliedChangeLedger(() => this.roots);

    get log(): WindowEventLog {
        return this.windowContext.log;
    }

    protected get roots(): readonly string[] {
        return this.windowContext.roots;
    }

    /**
     * Writes the text the user accepted in the window (`aiCliCompanion.diff.writeOnAccept`) as every other
     * write of the IDE's: only where the file lands inside the roots, never through a link planted in its
     * place or on its way (see writeFileWithinRoots).
     */
    async writeAccepted(filePath: string, content: string): Promise<void> {
        if (typeof filePath !== 'string' || !path.isAbsolute(filePath)) {
            throw new Error(`filePath must be absolute, got ${JSON.stringify(filePath)}`);
        }
        await writeFileWithinRoots(filePath, content, this.roots);
    }

    get onDidLog(): Event<WindowEvent> {
        return this.log.onDidLog;
    }

    get windowId(): string {
        return this.windowContext.windowId;
    }

    /**
     * Listens, then writes the discovery files: a CLI that finds a file can always connect.
     * Advertises the given flavours (all it knows by default).
     */
    async start(rootPaths: readonly string[], flavourIds: readonly CliFlavourId[] = this.options.flavours.map(flavour => flavour.id)): Promise<void> {
        this.credentials.enableFlavours(flavourIds);
        for (const endpoint of this.endpoints) {
            await endpoint.start();
        }
        await this.setRoots(rootPaths);
        this.log.info(`Window ${this.windowId}: companion server on 127.0.0.1:${this.server.port} for ${this.describeRoots()}, advertised to ${this.describeFlavours()}`);
    }

    async setRoots(rootPaths: readonly string[]): Promise<void> {
        this.windowContext.roots = await resolveRoots(rootPaths, this.log);
        this.editorVerdicts.clear();
        await this.writeDiscoveryFiles();
        if (this.editorState) {
            // The editors of a folder that came or went appear or go for the CLIs.
            await this.setEditorState(this.editorState);
        }
        this.fireStatusChanged();
    }

    /** Advertises exactly these flavours: the others' files go, and so do sessions that used their secret. */
    async setFlavours(flavourIds: readonly CliFlavourId[]): Promise<void> {
        const removed = this.credentials.enableFlavours(flavourIds);
        if (!removed) {
            return;
        }
        await this.writeDiscoveryFiles();
        const turnedOff = (credential: SessionCredential) => !!credential.flavour && removed.includes(credential.flavour);
        await Promise.all(this.endpoints.map(endpoint => endpoint.closeSessionsWhere(turnedOff)));
        this.log.info(`Window ${this.windowId}: now advertised to ${this.describeFlavours()}`);
        this.fireStatusChanged();
    }

    /**
     * A secret of its own for an ACP agent this window starts (handed to it in session/new, never
     * written to disk): its sessions are listed under `label`, and end when it is revoked.
     */
    issueAgentCredential(label: string): AgentCredential {
        const { credential, token } = this.credentials.issueAgentToken(label);
        return {
            url: `http://127.0.0.1:${this.server.port}${MCP_ENDPOINT_PATH}`,
            token,
            revoke: async () => {
                if (this.credentials.revokeAgentToken(credential)) {
                    await this.server.closeSessionsWhere(candidate => candidate === credential);
                }
            }
        };
    }

    protected get advertisedFlavours(): CliFlavour[] {
        return this.credentials.advertisedFlavours;
    }

    /** Writes every advertised flavour's file; a flavour that cannot be served is logged and shown, the others go on. */
    protected async writeDiscoveryFiles(): Promise<void> {
        const before = this.discoveryFiles.failures;
        await this.discoveryFiles.write(this.advertisedFlavours, flavour => this.endpointFor(flavour.id));
        for (const [flavourId, reason] of this.discoveryFiles.failures) {
            if (before.get(flavourId) !== reason) {
                this.log.warn(`Window ${this.windowId}: ${this.displayNameOf(flavourId)} cannot use IDE mode in this window: ${reason}`);
            }
        }
    }

    protected displayNameOf(flavourId: string): string {
        return this.options.flavours.find(flavour => flavour.id === flavourId)?.displayName ?? flavourId;
    }

    protected fireStatusChanged(): void {
        this.onDidChangeStatusEmitter.fire(this.status);
    }

    /** The window's frontend is attached (again); diffs open there until the returned disposable runs. */
    attachFrontend(frontend: WindowEditorClient | undefined): Disposable {
        this.windowContext.frontend = frontend;
        return Disposable.create(() => {
            if (this.windowContext.frontend === frontend) {
                this.windowContext.frontend = undefined;
            }
        });
    }

    /**
     * Validates the browser's state and tells every endpoint, each of which tells its sessions what
     * changed for them; editors of files outside the workspace folders are left out for all of them.
     */
    async setEditorState(state: WindowEditorState): Promise<void> {
        // A malformed state is refused with the reason before anything changes.
        ideContextFromEditorState(state);
        const current = ++this.editorStates;
        const shown = await editorsWithinRoots(state, this.roots, this.editorVerdicts);
        if (current === this.editorStates) {
            this.editorState = state;
            await this.publishEditor(ideContextFromEditorState(shown), shown);
        }
    }

    protected async publishEditor(context: IdeContext, state?: WindowEditorState): Promise<void> {
        this.windowContext.context = context;
        await Promise.all(this.endpoints.map(endpoint => endpoint.publishEditor({ context, state })));
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
        const counts = await Promise.all(this.endpoints.map(endpoint => endpoint.mention?.(parsed.data) ?? Promise.resolve(0)));
        const sessions = counts.reduce((sum, count) => sum + count, 0);
        this.log.info(`Sent ${parsed.data.filePath}`
            + `${parsed.data.lineStart !== undefined ? ` lines ${parsed.data.lineStart + 1}-${(parsed.data.lineEnd ?? parsed.data.lineStart) + 1}` : ''}`
            + ` to ${sessions} session(s)`);
        return sessions;
    }

    /** The window went away (tab closed or reloading): nobody is looking at a file any more. */
    async clearActiveEditor(): Promise<void> {
        ++this.editorStates;
        this.editorState &&= { ...this.editorState, openFiles: this.editorState.openFiles.map(({ uri, timestamp }) => ({ uri, timestamp })) };
        const context = this.windowContext.context;
        if (context) {
            await this.publishEditor(withoutActiveEditor(context));
        }
    }

    get currentContext(): IdeContext | undefined {
        return this.windowContext.context;
    }

    /** What the discovery file of this flavour advertises; its secret is empty if the flavour is off. */
    endpointFor(flavourId: CliFlavourId): DiscoveryEndpoint {
        return {
            port: this.endpointOf(flavourId).port,
            authToken: this.credentials.tokenOf(flavourId),
            workspaceRoots: this.roots,
            serverPid: this.options.serverPid,
            ideInfo: this.options.ideInfo
        };
    }

    /** The endpoint the CLIs of a flavour connect to. */
    endpointOf(flavourId: CliFlavourId): McpEndpoint {
        const flavour = this.options.flavours.find(candidate => candidate.id === flavourId);
        const endpoint = flavour && this.endpoints.find(candidate => candidate.transport === flavour.transport);
        if (!endpoint) {
            throw new Error(`Unknown CLI flavour ${flavourId}; known: ${this.options.flavours.map(known => known.id).join(', ')}`);
        }
        return endpoint;
    }

    /** Every session of the window, on all its endpoints. */
    get connectedSessions(): CliSessionInfo[] {
        return this.endpoints.flatMap(endpoint => endpoint.connectedSessions);
    }

    get discoveryFilePaths(): ReadonlyMap<string, string> {
        return this.discoveryFiles.files;
    }

    get status(): WindowServerStatus {
        return {
            windowId: this.windowId,
            port: this.server.port,
            flavours: this.advertisedFlavours.map(flavour => flavour.id),
            workspaceRoots: [...this.roots],
            sessions: this.connectedSessions,
            discoveryFiles: [...this.discoveryFiles.files].map(([flavour, file]) => {
                const placement = this.options.flavours.find(candidate => candidate.id === flavour)?.describeDiscoveryDirectory?.();
                return { flavour: flavour as CliFlavourId, path: file, ...(placement ? { placement } : {}) };
            }),
            pendingDiffs: this.diffs.openDiffs,
            terminalEnvironment: this.terminalEnvironment(),
            unavailableFlavours: [...this.discoveryFiles.failures].map(([flavour, reason]) => ({ flavour: flavour as CliFlavourId, reason }))
        };
    }

    /** The variables of the flavours this window serves; one whose file is missing would point its CLI at nothing. */
    terminalEnvironment(): Record<string, string> {
        const failures = this.discoveryFiles.failures;
        return Object.assign({}, ...this.advertisedFlavours.filter(flavour => !failures.has(flavour.id))
            .map(flavour => flavour.terminalEnvironment(this.endpointFor(flavour.id))));
    }

    /** Removes the discovery files first and synchronously, so even an exiting process leaves none. */
    async stop(): Promise<void> {
        this.discoveryFiles.removeAllSync();
        await this.diffs.rejectAll('the window closed');
        for (const endpoint of this.endpoints) {
            await endpoint.stop();
        }
        this.log.info(`Window ${this.windowId}: companion server stopped`);
        this.toDispose.splice(0).forEach(disposable => disposable.dispose());
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
async function resolveRoots(rootPaths: readonly string[], logger: WindowLogger): Promise<string[]> {
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
