import type * as acp from '@agentclientprotocol/sdk';
import { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';
import type { AcpAgentDefinition, FormField, FormValue, ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import type { SharedMcpServer } from './theia-mcp-servers';
import type { CheckpointRetention } from './checkpoint-retention';

export const acpChatServicePath = '/services/ai-acp-chat';

/** One chat session's ACP session, as the window needs to know it. */
export interface AcpSessionInfo {
    readonly chatSessionId: string;
    /** The agent's session id: stored with the chat so a reopened chat can load it. */
    readonly sessionId: string;
    readonly agentInfo?: { name: string; title?: string | null; version: string } | null;
    readonly modes?: acp.SessionModeState | null;
    readonly models?: { currentModelId?: string; availableModels?: { modelId: string; name: string }[] } | null;
    /** The agent's settings (mode, model, thought level, others) as ACP config options; none for agents with only `modes`/`models`. */
    readonly configOptions?: readonly acp.SessionConfigOption[];
    /** The user's MCP servers the session got, and those the agent could not take, with why. */
    readonly mcpServers?: { readonly offered: readonly string[]; readonly leftOut: readonly { name: string; reason: string }[] };
    /** What the agent takes in a prompt besides text and resource links (embedded files, images, audio). */
    readonly promptCapabilities?: acp.PromptCapabilities | null;
    /** True when the agent replayed a stored session (session/load) instead of starting one. */
    readonly loaded: boolean;
    /** Why the stored session could not be reopened, when a new one was started instead. */
    readonly loadFailure?: string;
    /** The agent this chat talked to until this start, when the chat changed agent (its session is kept aside). */
    readonly previousAgent?: string;
    /** True when the chat changed back to this agent and its earlier session of this chat goes on. */
    readonly resumed?: boolean;
}

export interface StartAcpSessionRequest {
    readonly chatSessionId: string;
    readonly agent: AcpAgentDefinition;
    /** Absolute path of the workspace folder the agent works in. */
    readonly cwd: string;
    /** Every workspace folder, for the agent's file access checks. */
    readonly roots: readonly string[];
    /** The agent's session id of a chat being reopened, to load when the agent can. */
    readonly loadSessionId?: string;
    /** The user's MCP servers (Theia AI's), offered to the agent next to the window's own IDE server. */
    readonly mcpServers?: readonly SharedMcpServer[];
    /** Ignored files the turns' snapshots record anyway (globs; `aiCliCompanion.snapshots.include`). */
    readonly snapshotInclude?: readonly string[];
}

/** Why a session could not start, in a form the chat can act on. */
export type AcpStartFailure =
    | { readonly kind: 'not-installed'; readonly command: string; readonly installCommand?: string }
    | { readonly kind: 'auth-required'; readonly message: string; readonly methods: readonly acp.AuthMethod[] }
    | { readonly kind: 'failed'; readonly message: string };

export type AcpStartResult = { readonly ok: true; readonly session: AcpSessionInfo } | { readonly ok: false; readonly failure: AcpStartFailure };

/** A file a turn changed (whoever wrote it), against the snapshot of the workspace folders taken when the turn started. */
export interface AcpTurnFileChange {
    readonly path: string;
    /** Relative to its workspace folder, `/`-separated. */
    readonly relativePath: string;
    readonly kind: 'added' | 'modified' | 'deleted';
    /** Both sides were kept (not over the snapshot size limit): it can be compared and restored. */
    readonly reviewable: boolean;
    readonly binary: boolean;
    /** When it was put back as it was before the turn. */
    readonly restoredAt?: number;
    /** Why it could not be read (a named pipe, a file that may not be read): listed as changed, not restorable. */
    readonly unreadable?: string;
}

/** What a turn changed in the workspace folders. */
export interface AcpTurnCheckpoint {
    readonly turnId: string;
    readonly changes: readonly AcpTurnFileChange[];
    /** A folder had more files than a snapshot records: changes beyond them are not listed. */
    readonly truncated: boolean;
    /** Why what the turn changed (in a folder, or at all) could not be recorded: the chat says so in the turn. */
    readonly error?: string;
}

export type AcpRestoreResult =
    /** Nothing was written: these files changed after the turn(s); restore again saying to overwrite or skip them. */
    | { readonly kind: 'changed-since'; readonly files: readonly string[] }
    | { readonly kind: 'restored'; readonly restored: readonly string[]; readonly failed: readonly { path: string; reason: string }[] }
    | { readonly kind: 'unavailable'; readonly reason: string };

export type AcpPromptResult = { readonly ok: true; readonly stopReason: acp.StopReason; readonly meta?: unknown } | { readonly ok: false; readonly message: string };

export const AcpChatBackend = Symbol('AcpChatBackend');
/** One per window: the ACP agents its chat sessions talk to run in the backend. */
export interface AcpChatBackend extends RpcServer<AcpChatClient> {
    /**
     * Starts (or loads) the agent's session for the chat; a chat that talked to another agent changes to this
     * one: the other's session is kept aside (its turn cancelled), and this agent's earlier session of the chat,
     * if it still runs, is resumed. Every other call naming the chat goes to the agent it talks to now.
     */
    startSession(request: StartAcpSessionRequest): Promise<AcpStartResult>;
    /** Authenticates the agent of this chat session, e.g. with an API key in `meta`; then start again. */
    authenticate(chatSessionId: string, methodId: string, meta?: Record<string, unknown>): Promise<void>;
    /**
     * Sends a prompt; with `turnId` (the chat request's id) the workspace folders are snapshotted first,
     * and {@link endTurn} says what the turn changed. With `agentName`, refused unless the chat talks to that agent now.
     */
    prompt(chatSessionId: string, prompt: acp.ContentBlock[], turnId?: string, agentName?: string): Promise<AcpPromptResult>;
    /**
     * The turn is over, the window's own follow-up writes included (a reviewed text put in place of an
     * agent's write): what it changed, kept for restores; undefined when it changed nothing.
     */
    endTurn(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined>;
    cancel(chatSessionId: string): Promise<void>;
    setMode(chatSessionId: string, modeId: string): Promise<void>;
    setModel(chatSessionId: string, modelId: string): Promise<void>;
    /** Sets one of the agent's config options (a value id, or a boolean for a boolean option); answers the agent's new list. */
    setConfigOption(chatSessionId: string, configId: string, value: string | boolean): Promise<readonly acp.SessionConfigOption[]>;
    /**
     * The chat was deleted: its session ends in the agent (its turn cancelled; deleted from the agent's history where it
     * can and `mayDelete`, else closed, else kept: said in the answer) and the agent stops. `mayDelete` is false for a
     * session the chat took from the agent's list (it is the agent's, not the chat's). Undefined when no agent ran for the chat.
     */
    closeSession(chatSessionId: string, mayDelete?: boolean): Promise<'deleted' | 'closed' | 'kept' | undefined>;
    /**
     * One page of the agent's own sessions in `cwd` (one of `roots`, the workspace folders), newest first as the agent
     * lists them. Starts the agent for it (the window checks workspace trust first) and stops it again.
     */
    listAgentSessions(request: { agent: AcpAgentDefinition; cwd: string; roots: readonly string[]; cursor?: string }): Promise<AcpAgentSessionPage>;
    /** A tool call's whole text output (the chat shows its first and last lines), while the agent's session lasts. */
    toolOutput(chatSessionId: string, toolCallId: string): Promise<string | undefined>;
    /** The file's text on disk (inside the chat's workspace folders), undefined when it does not exist: what a permission diff is reviewed against. */
    readForReview(chatSessionId: string, filePath: string): Promise<string | undefined>;
    /**
     * Where a path an agent reported (a tool call's location) really lands, every link on the way followed (a
     * dangling one too), when that is inside the chat's workspace folders; undefined when it is not, or cannot be told.
     */
    landingInWorkspace(chatSessionId: string, filePath: string): Promise<string | undefined>;
    /**
     * After an agent wrote a file itself (it does not write through the client), puts the user's reviewed
     * text in its place, if the file holds exactly what the agent proposed; false (nothing written) otherwise.
     */
    replaceWritten(chatSessionId: string, filePath: string, expected: string, reviewed: string): Promise<boolean>;
    /** What a turn changed, as recorded (also after a backend restart); undefined when it changed nothing. */
    turnCheckpoint(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined>;
    /** A file's text before or after a turn, undefined when it did not exist then. */
    turnFileContent(chatSessionId: string, turnId: string, filePath: string, side: 'before' | 'after'): Promise<string | undefined>;
    /**
     * Restore to before this turn: the files it and every later turn of the chat changed (or only `files`)
     * get their content from before it. Files changed since (or with unsaved edits in the window: `dirty`)
     * are written only when named in `overwrite`. Only inside `roots`: the window's workspace folders now
     * (never those the stored checkpoint names).
     */
    restoreTurn(
        chatSessionId: string, turnId: string, options: { files?: string[]; overwrite: string[]; skip: string[]; dirty?: string[]; roots: string[] }
    ): Promise<AcpRestoreResult>;
    /** Writes a restored file as the turn left it again, if it holds what it held before the turn (or `force`); only inside `roots` (the window's folders now). */
    reapplyTurnFile(chatSessionId: string, turnId: string, filePath: string, force: boolean, roots: string[]): Promise<AcpRestoreResult>;
    /** The user's checkpoint retention (checked here): how many turns per chat, and how much space, the checkpoint store keeps. */
    setCheckpointRetention(retention: CheckpointRetention): Promise<void>;
}

/** A question the agent asks the user (ACP elicitation): a form of fields, or a URL to open. */
export interface AcpQuestion {
    /** The backend's id of this question (not the agent's). */
    readonly id: string;
    readonly message: string;
    /** The tool call it belongs to, when the agent says. */
    readonly toolCallId?: string;
    /** Form questions: the fields, already checked. */
    readonly fields?: readonly FormField[];
    /** URL questions: where the agent asks the user to go, and that URL's host, shown before anything opens. */
    readonly url?: { readonly href: string; readonly host: string };
}

/** The user's answer: the form's values (checked against its fields), or declined, or dismissed. */
export type AcpQuestionAnswer =
    | { readonly action: 'accept'; readonly content?: Readonly<Record<string, FormValue>> }
    | { readonly action: 'decline' }
    | { readonly action: 'cancel' };

/** A page of an agent's own sessions (ACP session/list). */
export interface AcpAgentSessionPage {
    /** False when the agent does not list its sessions. */
    readonly supported: boolean;
    readonly sessions: readonly { readonly sessionId: string; readonly cwd: string; readonly title?: string; readonly updatedAt?: string }[];
    readonly nextCursor?: string;
}

export const AcpChatClient = Symbol('AcpChatClient');
/** What the backend asks of the window: rendering, the user's decisions, and the editor's buffers. */
export interface AcpChatClient {
    onSessionUpdate(chatSessionId: string, update: acp.SessionUpdate, toolCall?: ToolCallState): void;
    askPermission(chatSessionId: string, request: acp.RequestPermissionRequest, toolCall: ToolCallState): Promise<acp.RequestPermissionOutcome>;
    /**
     * The text of the file's open editor (unsaved edits included), or undefined when no editor has it
     * open: then the backend reads the disk itself (symbolic links cannot redirect it there).
     */
    openEditorText(chatSessionId: string, filePath: string): Promise<string | undefined>;
    /**
     * The text to write instead of the agent's when the user edited its proposal before allowing it;
     * undefined writes the agent's. The backend writes the file itself (symbolic links cannot redirect it there).
     */
    editedContentFor(chatSessionId: string, request: acp.WriteTextFileRequest): Promise<string | undefined>;
    /** The backend wrote the file: an open editor of it shows the new text. */
    didWriteTextFile(chatSessionId: string, filePath: string): Promise<void>;
    /** The agent started a command; the window shows it in a terminal attached to Theia's process `processId`. */
    showTerminal(chatSessionId: string, terminal: { terminalId: string; processId: number; title: string }): void;
    /** The agent process ended on its own; `message` says how. */
    onAgentExit(chatSessionId: string, message: string): void;
    /** The agent asked for something the client does not serve (`method`); it was answered "method not found". */
    onUnsupportedRequest(chatSessionId: string, method: string): void;
    /** Asks the user the agent's question in the chat; a question nobody can answer now (no turn runs) is answered `cancel`. */
    askQuestion(chatSessionId: string, question: AcpQuestion): Promise<AcpQuestionAnswer>;
    /** The question is no longer asked: the agent withdrew it, or (a URL question) said it is done. */
    questionClosed(chatSessionId: string, questionId: string, why: 'withdrawn' | 'completed'): void;
    /** The agent withdrew its permission request for this tool call ($/cancel_request); it was answered `cancelled`. */
    permissionWithdrawn(chatSessionId: string, toolCallId: string): void;
    /** The agent asked a question the chat cannot show (`reason`); it was answered with the protocol's error. */
    onQuestionRefused(chatSessionId: string, reason: string): void;
}
