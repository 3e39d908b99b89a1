import { inject, injectable } from '@theia/core/shared/inversify';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { FileUri } from '@theia/core/lib/common/file-uri';
import {
    WindowEditorState, WindowEvent, DiffOutcome, fromRpcText, WindowEditorClient, RpcText, WindowServerStatus
} from '@theia-cli-companion/ide-companion-server/lib/common';
import { CLI_FLAVOUR_IDS, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { AttachWindowRequest, IdeCompanionBackend } from '../common/ide-companion-protocol';
import { findExecutable, timingMark } from '@theia-cli-companion/cli-process/lib/node';
import type { AgentCredential, WindowServer } from '@theia-cli-companion/ide-companion-server/lib/node';
import { WindowAgentCredentials } from './window-agent-credentials';
import { WindowServerRegistry } from './window-server-registry';

/** The backend half of one frontend connection: it owns (at most) one window. */
@injectable()
export class IdeCompanionBackendImpl implements IdeCompanionBackend, WindowAgentCredentials {

    @inject(WindowServerRegistry)
    protected readonly registry: WindowServerRegistry;

    protected client?: WindowEditorClient;
    protected window?: WindowServer;
    protected readonly toDisposeOnWindowChange = new DisposableCollection();

    setClient(client: WindowEditorClient | undefined): void {
        this.client = client;
    }

    async attachWindow(request: AttachWindowRequest): Promise<WindowServerStatus> {
        const window = await this.registry.attach(this, toFsPaths(request.rootUris), this.installed(toFlavours(request.flavours)), request.windowId, request.reclaim === true);
        if (window !== this.window) {
            this.toDisposeOnWindowChange.dispose();
            this.window = window;
            this.toDisposeOnWindowChange.push(window.attachFrontend(this.client));
            this.toDisposeOnWindowChange.push(window.onDidChangeStatus(status => this.client?.notifyStatusChanged(status)));
            this.toDisposeOnWindowChange.push(window.onDidLog(event => this.client?.notifyEvent(event)));
        }
        return window.status;
    }

    async setFlavours(flavours: readonly CliFlavourId[]): Promise<WindowServerStatus> {
        const window = this.requireWindow();
        await window.setFlavours(this.installed(toFlavours(flavours)));
        return window.status;
    }

    async detachWindow(): Promise<void> {
        this.toDisposeOnWindowChange.dispose();
        this.window = undefined;
        await this.registry.release(this);
    }

    async getRecentEvents(): Promise<WindowEvent[]> {
        return this.window?.log.recent ?? [];
    }

    findExecutable(command: string): Promise<string | undefined> {
        return findExecutable(command);
    }

    async setWorkspaceRoots(rootUris: readonly string[]): Promise<WindowServerStatus> {
        const window = this.requireWindow();
        await window.setRoots(toFsPaths(rootUris));
        return window.status;
    }

    async getStatus(): Promise<WindowServerStatus | undefined> {
        return this.window?.status;
    }

    async resolveDiff(id: string, outcome: DiffOutcome): Promise<void> {
        await this.requireWindow().diffs.resolve(id, outcome);
    }

    async recordBeforeChange(fileUri: string): Promise<string> {
        if (typeof fileUri !== 'string' || !fileUri.startsWith('file:')) {
            throw new Error('fileUri must be a file: URI');
        }
        return this.requireWindow().applied.record(FileUri.fsPath(fileUri));
    }

    async undoChange(id: string): Promise<void> {
        if (typeof id !== 'string') {
            throw new Error('id must be a string');
        }
        await this.requireWindow().applied.restore(id);
    }

    async writeAccepted(fileUri: string, content: RpcText): Promise<void> {
        if (typeof fileUri !== 'string' || !fileUri.startsWith('file:')) {
            throw new Error('fileUri must be a file: URI');
        }
        await this.requireWindow().writeAccepted(FileUri.fsPath(fileUri), fromRpcText(content));
    }

    async sendToClaude(mention: { fileUri: string; lineStart?: number; lineEnd?: number }): Promise<number> {
        if (typeof mention?.fileUri !== 'string' || !mention.fileUri.startsWith('file:')) {
            throw new Error('fileUri must be a file: URI');
        }
        return this.requireWindow().sendAtMention({
            filePath: FileUri.fsPath(mention.fileUri),
            ...(mention.lineStart !== undefined ? { lineStart: mention.lineStart } : {}),
            ...(mention.lineEnd !== undefined ? { lineEnd: mention.lineEnd } : {})
        });
    }

    async updateEditorState(state: WindowEditorState): Promise<void> {
        timingMark('context:received');
        await this.requireWindow().setEditorState(state);
    }

    dispose(): void {
        this.toDisposeOnWindowChange.dispose();
        this.registry.detach(this);
        this.window = undefined;
    }

    /** This connection's window (tests look into it). */
    get currentWindow(): WindowServer | undefined {
        return this.window;
    }

    issueAgentCredential(label: string): AgentCredential | undefined {
        return this.window?.issueAgentCredential(label);
    }

    /**
     * The flavours of the catalogue that no installed extension contributes are left out: the
     * frontend asks for every CLI its preferences turn on, the backend serves those it has.
     */
    protected installed(flavours: CliFlavourId[]): CliFlavourId[] {
        const served = new Set(this.registry.flavours.map(flavour => flavour.id));
        return flavours.filter(id => served.has(id) || !CLI_FLAVOUR_IDS.includes(id));
    }

    protected requireWindow(): WindowServer {
        if (!this.window) {
            throw new Error('attachWindow must be called first');
        }
        return this.window;
    }
}

function toFlavours(flavours: readonly CliFlavourId[]): CliFlavourId[] {
    if (!Array.isArray(flavours) || flavours.some(id => typeof id !== 'string')) {
        throw new Error('flavours must be an array of CLI flavour ids');
    }
    return [...new Set(flavours)];
}

/** Only `file:` roots exist on this machine's disk, which is where the CLIs run. */
function toFsPaths(rootUris: readonly string[]): string[] {
    if (!Array.isArray(rootUris)) {
        throw new Error('rootUris must be an array of file URIs');
    }
    return rootUris.filter(uri => typeof uri === 'string' && uri.startsWith('file:')).map(uri => FileUri.fsPath(uri));
}
