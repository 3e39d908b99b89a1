import type { Event } from 'vscode-jsonrpc';
import type { IdeTransport } from '@theia-cli-companion/cli-process/lib/common';
import type { ClaudeAtMentioned, IdeContext } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { CliSessionInfo, SessionCredential } from '../common/window-protocol';
import type { WindowEditorState } from '../common/open-editors-model';

/** What a window's editor looks like now, in the shapes the endpoints tell their sessions about. */
export interface EditorSnapshot {
    /** Validated IDE context (open files, cursor, selection, trust). */
    readonly context: IdeContext;
    /** The browser's state it came from; absent when the window went away (nobody looks at a file). */
    readonly state?: WindowEditorState;
}

/**
 * How many sessions one endpoint of a window serves at once, unless told otherwise: far more than a
 * window's CLIs and agents, few enough that a client opening session after session cannot exhaust
 * the backend. A session beyond it is refused; the open ones are not affected.
 */
export const DEFAULT_MAX_SESSIONS = 64;

/**
 * One of a window's MCP endpoints: where the CLIs of one transport connect. The window treats every
 * endpoint alike; what differs between transports (the wire, the handshake, the tools a session
 * gets, how it hears of the editor) stays inside the endpoint.
 */
export const McpEndpoint = Symbol('McpEndpoint');
export interface McpEndpoint {
    readonly transport: IdeTransport;
    /** Its loopback port; 0 until started. */
    readonly port: number;
    /** The sessions that completed the MCP handshake. */
    readonly connectedSessions: CliSessionInfo[];
    readonly onDidChangeSessions: Event<readonly CliSessionInfo[]>;
    start(): Promise<number>;
    /** Tells the sessions about the editor, in the transport's own terms, when that changed for them. */
    publishEditor(editor: EditorSnapshot): Promise<void>;
    /** Ends the sessions opened with credentials like these (a flavour turned off, an agent gone). */
    closeSessionsWhere(match: (credential: SessionCredential) => boolean): Promise<void>;
    /**
     * Endpoints whose CLIs take a file (and lines, 0-based) from the IDE as context for their next
     * prompt: sends it (already validated and inside the workspace) to every session; answers how many.
     */
    mention?(mention: ClaudeAtMentioned): Promise<number>;
    stop(): Promise<void>;
}
