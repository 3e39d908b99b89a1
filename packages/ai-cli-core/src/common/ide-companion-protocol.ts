import { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';
import type { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type {
    WindowEditorState, WindowEvent, DiffOutcome, WindowEditorClient, RpcText, WindowServerStatus
} from '@theia-cli-companion/ide-companion-server/lib/common';

export const ideCompanionServicePath = '/services/ai-cli-ide-companion';

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
export interface IdeCompanionBackend extends RpcServer<WindowEditorClient> {
    /** Starts or re-attaches this window's server; resolves once its discovery files are on disk. */
    attachWindow(request: AttachWindowRequest): Promise<WindowServerStatus>;
    /** Rewrites the discovery files for new roots; resolves with the updated status. */
    setWorkspaceRoots(rootUris: readonly string[]): Promise<WindowServerStatus>;
    /** Advertises exactly these flavours from now on: files and sessions of the others go. */
    setFlavours(flavours: readonly CliFlavourId[]): Promise<WindowServerStatus>;
    /** The user turned the companion off: the window's server stops now, its files go, its CLIs disconnect. */
    detachWindow(): Promise<void>;
    getStatus(): Promise<WindowServerStatus | undefined>;
    /** The window's most recent events, oldest first (a bounded number). */
    getRecentEvents(): Promise<WindowEvent[]>;
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
     * Writes the text the user accepted (`aiCliCompanion.diff.writeOnAccept`) to the file, from the
     * backend and only where the file lands inside the window's roots (no link followed out of them).
     */
    writeAccepted(fileUri: string, content: RpcText): Promise<void>;
    /**
     * "Send Selection to Claude Code": mentions the file (and 0-based lines) to the window's Claude
     * Code sessions; resolves with how many there are.
     */
    sendToClaude(mention: { fileUri: string; lineStart?: number; lineEnd?: number }): Promise<number>;
}

