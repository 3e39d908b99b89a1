import type * as acp from '@agentclientprotocol/sdk';
import { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';
import type { AcpAgentDefinition, ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import type { SharedMcpServer } from './theia-mcp-servers';

export const acpChatServicePath = '/services/ai-acp-chat';

/** One chat session's ACP session, as the window needs to know it. */
export interface AcpSessionInfo {
    readonly chatSessionId: string;
    /** The agent's session id: stored with the chat so a reopened chat can load it. */
    readonly sessionId: string;
    readonly agentInfo?: { name: string; title?: string | null; version: string } | null;
    readonly modes?: acp.SessionModeState | null;
    readonly models?: { currentModelId?: string; availableModels?: { modelId: string; name: string }[] } | null;
    /** The user's MCP servers the session got, and those the agent could not take, with why. */
    readonly mcpServers?: { readonly offered: readonly string[]; readonly leftOut: readonly { name: string; reason: string }[] };
    /** What the agent takes in a prompt besides text and resource links (embedded files, images, audio). */
    readonly promptCapabilities?: acp.PromptCapabilities | null;
    /** True when the agent replayed a stored session (session/load) instead of starting one. */
    readonly loaded: boolean;
    /** Why the stored session could not be reopened, when a new one was started instead. */
    readonly loadFailure?: string;
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
}

/** Why a session could not start, in a form the chat can act on. */
export type AcpStartFailure =
    | { readonly kind: 'not-installed'; readonly command: string; readonly installCommand?: string }
    | { readonly kind: 'auth-required'; readonly message: string; readonly methods: readonly acp.AuthMethod[] }
    | { readonly kind: 'failed'; readonly message: string };

export type AcpStartResult = { readonly ok: true; readonly session: AcpSessionInfo } | { readonly ok: false; readonly failure: AcpStartFailure };

export type AcpPromptResult = { readonly ok: true; readonly stopReason: acp.StopReason; readonly meta?: unknown } | { readonly ok: false; readonly message: string };

export const AcpChatBackend = Symbol('AcpChatBackend');
/** One per window: the ACP agents its chat sessions talk to run in the backend. */
export interface AcpChatBackend extends RpcServer<AcpChatClient> {
    startSession(request: StartAcpSessionRequest): Promise<AcpStartResult>;
    /** Authenticates the agent of this chat session, e.g. with an API key in `meta`; then start again. */
    authenticate(chatSessionId: string, methodId: string, meta?: Record<string, unknown>): Promise<void>;
    prompt(chatSessionId: string, prompt: acp.ContentBlock[]): Promise<AcpPromptResult>;
    cancel(chatSessionId: string): Promise<void>;
    setMode(chatSessionId: string, modeId: string): Promise<void>;
    setModel(chatSessionId: string, modelId: string): Promise<void>;
    /** Stops the agent of this chat session. */
    closeSession(chatSessionId: string): Promise<void>;
    /** A tool call's whole text output (the chat shows its first and last lines), while the agent's session lasts. */
    toolOutput(chatSessionId: string, toolCallId: string): Promise<string | undefined>;
    /** The file's text on disk (inside the chat's workspace folders), undefined when it does not exist: what a permission diff is reviewed against. */
    readForReview(chatSessionId: string, filePath: string): Promise<string | undefined>;
    /**
     * After an agent wrote a file itself (it does not write through the client), puts the user's reviewed
     * text in its place, if the file holds exactly what the agent proposed; false (nothing written) otherwise.
     */
    replaceWritten(chatSessionId: string, filePath: string, expected: string, reviewed: string): Promise<boolean>;
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
}
