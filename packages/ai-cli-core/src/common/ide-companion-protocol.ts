import { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';
import { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { WindowEditorState } from './open-editors-model';
import { RpcText } from './rpc-text';
import type { DocumentState, FileDiagnostics } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

/** Open a file in the window's editor, optionally at a line range (1-based). */
export interface OpenFileRequest {
    readonly fileUri: string;
    readonly startLine?: number;
    readonly endLine?: number;
    readonly select?: boolean;
}

export const ideCompanionServicePath = '/services/ai-cli-ide-companion';

/**
 * Who a session authenticated as: a CLI flavour's discovery-file secret, or a secret the window
 * handed to one ACP agent it started (no flavour then).
 */
export interface SessionCredential {
    readonly flavour?: CliFlavourId;
    /** How the window names such a client: "Gemini CLI", "ACP agent Gemini". */
    readonly label: string;
}

/** A CLI session connected to a window's companion server. */
export interface CliSessionInfo {
    readonly sessionId: string;
    /** Whose discovery file the CLI read (each flavour's file carries its own token); none for an ACP agent. */
    readonly flavour?: CliFlavourId;
    /** The credential's label, for the status bar, status view, report and diff titles. */
    readonly clientLabel: string;
    /** `clientInfo` from the MCP initialize request. */
    readonly clientName: string;
    readonly clientVersion: string;
    /** Unix time in milliseconds. */
    readonly connectedAt: number;
}

/** A change a CLI proposed that waits for the user's answer in the window. */
export interface PendingDiffInfo {
    readonly id: string;
    readonly sessionId: string;
    /** Absolute path of the file on the backend's disk. */
    readonly filePath: string;
    /** Unix time in milliseconds. */
    readonly openedAt: number;
}

/** A discovery file on disk that points CLIs of one flavour at the window. Its path holds no secret. */
export interface DiscoveryFileInfo {
    readonly flavour: CliFlavourId;
    readonly path: string;
}

/**
 * Something that happened to a window's companion, for its "CLI Companion" log. Messages name
 * sessions, files and reasons; they never contain a token or file content.
 */
export interface CompanionEvent {
    /** Unix time in milliseconds. */
    readonly time: number;
    readonly level: 'info' | 'warn' | 'error';
    readonly message: string;
}

/** What the backend tells a window about the server it runs for it. */
export interface WindowCompanionStatus {
    /** Stable across reloads of the same browser tab, so CLI sessions survive a reload. */
    readonly windowId: string;
    readonly port: number;
    readonly flavours: readonly CliFlavourId[];
    /** The realpath'd workspace roots advertised to the CLIs. */
    readonly workspaceRoots: readonly string[];
    readonly sessions: readonly CliSessionInfo[];
    readonly discoveryFiles: readonly DiscoveryFileInfo[];
    readonly pendingDiffs: readonly PendingDiffInfo[];
    /** Variables that point a CLI started in this window's terminals at this window's server. */
    readonly terminalEnvironment: Readonly<Record<string, string>>;
    /** Advertised flavours that cannot be served in this window (their discovery file could not be written), and why. */
    readonly unavailableFlavours: readonly UnavailableFlavourInfo[];
}

export interface UnavailableFlavourInfo {
    readonly flavour: CliFlavourId;
    readonly reason: string;
}

export interface AttachWindowRequest {
    /** The id this browser tab used before a reload, if any. */
    readonly windowId?: string;
    /**
     * True when this tab left the page (a reload) after its last attach: the window may be taken over
     * even though the connection of the page before the reload has not timed out yet. False for a
     * duplicated tab, whose copied id still belongs to the live original.
     */
    readonly reclaim?: boolean;
    /** Workspace root URIs (`file:///…`) as the frontend knows them. */
    readonly rootUris: readonly string[];
    /** The CLI flavours to advertise (discovery files and terminal variables); the user's preferences. */
    readonly flavours: readonly CliFlavourId[];
}

export const IdeCompanionBackend = Symbol('IdeCompanionBackend');
/** One instance per frontend connection (browser window). */
export interface IdeCompanionBackend extends RpcServer<IdeCompanionFrontendClient> {
    /** Starts or re-attaches this window's server; resolves once its discovery files are on disk. */
    attachWindow(request: AttachWindowRequest): Promise<WindowCompanionStatus>;
    /** Rewrites the discovery files for new roots; resolves with the updated status. */
    setWorkspaceRoots(rootUris: readonly string[]): Promise<WindowCompanionStatus>;
    /** Advertises exactly these flavours from now on: files and sessions of the others go. */
    setFlavours(flavours: readonly CliFlavourId[]): Promise<WindowCompanionStatus>;
    /** The user turned the companion off: the window's server stops now, its files go, its CLIs disconnect. */
    detachWindow(): Promise<void>;
    getStatus(): Promise<WindowCompanionStatus | undefined>;
    /** The window's most recent events, oldest first (a bounded number). */
    getRecentEvents(): Promise<CompanionEvent[]>;
    /** Whether an executable of this name is on the backend's PATH (or, for a path, exists), as a terminal would find it. */
    findExecutable(command: string): Promise<string | undefined>;
    /** The window's open files, active editor, cursor, selection and trust; pushed to its CLI sessions. */
    updateEditorState(state: WindowEditorState): Promise<void>;
    /** The user accepted or rejected a diff in the window. */
    resolveDiff(id: string, outcome: DiffOutcome): Promise<void>;
    /**
     * Keeps the file's bytes before a change the user does not review (accepted automatically, or an
     * agent's write in an auto-edit mode); resolves with the id that undoes it. Refused outside the roots.
     */
    recordBeforeChange(fileUri: string): Promise<string>;
    /** Puts the file back as it was before that change (removes it if the change created it). */
    undoChange(id: string): Promise<void>;
    /**
     * "Send Selection to Claude Code": mentions the file (and 0-based lines) to the window's Claude
     * Code sessions; resolves with how many there are.
     */
    sendToClaude(mention: { fileUri: string; lineStart?: number; lineEnd?: number }): Promise<number>;
}

/** A change a CLI proposes for one file, to review in a diff editor of the window. */
export interface DiffProposal {
    readonly id: string;
    /** `file://` URI of the file the change is for. */
    readonly fileUri: string;
    readonly newContent: RpcText;
    /** False for a file the change would create: the left side is then empty. */
    readonly fileExists: boolean;
    /** Who proposed it, for the diff editor's title: the MCP client name and version. */
    readonly proposedBy: string;
    /** Which session, chat or task it belongs to: reviews are grouped, navigated and paced by it. */
    readonly origin: ReviewOrigin;
}

/** Who made a proposal, as the review groups it. */
export interface ReviewOrigin {
    readonly kind: 'cli' | 'acp' | 'task';
    /** The CLI session id, the chat session id or the task id. */
    readonly groupId: string;
    /** What the user sees for the group, e.g. "Gemini CLI (gemini-cli-client 0.61.0)". */
    readonly label: string;
    /** A CLI session's flavour: its review pace is set per flavour. */
    readonly flavour?: CliFlavourId;
}

/** The user's answer; an accepted text crosses the RPC as {@link RpcText}. */
export type DiffOutcome = { readonly accepted: true; readonly content: RpcText } | { readonly accepted: false };

export const IdeCompanionFrontendClient = Symbol('IdeCompanionFrontendClient');
export interface IdeCompanionFrontendClient {
    notifyStatusChanged(status: WindowCompanionStatus): void;
    notifyEvent(event: CompanionEvent): void;
    /** Opens the diff editor; resolves once it is open, rejects with the reason it could not. */
    openDiff(proposal: DiffProposal): Promise<void>;
    /** Closes the diff editor without an outcome; resolves with the right side's text, if it was open. */
    closeDiff(id: string): Promise<RpcText | undefined>;
    /** The window's problems (Theia's markers) for one file, or every file that has some. */
    getDiagnostics(fileUri?: string): Promise<FileDiagnostics[]>;
    /** Whether the document is open in an editor of the window, and has unsaved changes. */
    getDocumentState(fileUri: string): Promise<DocumentState>;
    /** Saves the open document; resolves with its state afterwards (an unopened document is left alone). */
    saveDocument(fileUri: string): Promise<DocumentState>;
    openFile(request: OpenFileRequest): Promise<void>;
}
