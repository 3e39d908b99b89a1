import type { CliFlavourId, DocumentState, FileDiagnostics } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { RpcText } from './rpc-text';

// What one window's companion server and the window's editor side say to each other, whatever the host
// (a Theia frontend over RPC, a VS Code extension in-process).

/** Open a file in the window's editor, optionally at a line range (1-based). */
export interface OpenFileRequest {
    readonly fileUri: string;
    readonly startLine?: number;
    readonly endLine?: number;
    readonly select?: boolean;
}

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
    /** Why the file is in that directory, where the flavour had a choice (Gemini CLI: the standard or a private one). */
    readonly placement?: string;
}

/**
 * Something that happened to a window's companion, for its "CLI Companion" log. Messages name
 * sessions, files and reasons; they never contain a token or file content.
 */
export interface WindowEvent {
    /** Unix time in milliseconds. */
    readonly time: number;
    readonly level: 'info' | 'warn' | 'error';
    readonly message: string;
}

/** What the backend tells a window about the server it runs for it. */
export interface WindowServerStatus {
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

export const WindowEditorClient = Symbol('WindowEditorClient');
export interface WindowEditorClient {
    notifyStatusChanged(status: WindowServerStatus): void;
    notifyEvent(event: WindowEvent): void;
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
