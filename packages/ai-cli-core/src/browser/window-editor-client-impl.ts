import { inject, injectable } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import {
    WindowEvent, DiffProposal, WindowEditorClient, OpenFileRequest, WindowServerStatus, RpcText
} from '@theia-cli-companion/ide-companion-server/lib/common';
import type { DocumentState, FileDiagnostics } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { CliDiffRequests } from './diff-review/cli-diff-requests';

/**
 * The window's `CliDiffRequests`, resolved when the first diff request comes: it answers the backend
 * through the proxy this client serves, so it cannot be injected here directly (a DI cycle).
 */
export const CliDiffRequestsProvider = Symbol('CliDiffRequestsProvider');
export type CliDiffRequestsProvider = () => CliDiffRequests;

/** What answers the agents' IDE tools in this window (the window IDE tools service). */
export const IdeToolsHandler = Symbol('IdeToolsHandler');
export interface IdeToolsHandler {
    getDiagnostics(fileUri?: string): Promise<FileDiagnostics[]>;
    getDocumentState(fileUri: string): Promise<DocumentState>;
    saveDocument(fileUri: string): Promise<DocumentState>;
    openFile(request: OpenFileRequest): Promise<void>;
}

/** Receives the backend's pushes and requests for this window. */
@injectable()
export class WindowEditorClientImpl implements WindowEditorClient {
    protected readonly onDidChangeStatusEmitter = new Emitter<WindowServerStatus>();
    readonly onDidChangeStatus: Event<WindowServerStatus> = this.onDidChangeStatusEmitter.event;
    protected readonly onDidLogEmitter = new Emitter<WindowEvent>();
    readonly onDidLog: Event<WindowEvent> = this.onDidLogEmitter.event;

    @inject(CliDiffRequestsProvider)
    protected readonly cliDiffs: CliDiffRequestsProvider;

    @inject(IdeToolsHandler)
    protected readonly tools: IdeToolsHandler;

    getDiagnostics(fileUri?: string): Promise<FileDiagnostics[]> {
        return this.tools.getDiagnostics(fileUri);
    }

    getDocumentState(fileUri: string): Promise<DocumentState> {
        return this.tools.getDocumentState(fileUri);
    }

    saveDocument(fileUri: string): Promise<DocumentState> {
        return this.tools.saveDocument(fileUri);
    }

    openFile(request: OpenFileRequest): Promise<void> {
        return this.tools.openFile(request);
    }

    notifyStatusChanged(status: WindowServerStatus): void {
        this.onDidChangeStatusEmitter.fire(status);
    }

    notifyEvent(event: WindowEvent): void {
        this.onDidLogEmitter.fire(event);
    }

    async openDiff(proposal: DiffProposal): Promise<void> {
        return this.cliDiffs().openDiff(proposal);
    }

    async closeDiff(id: string): Promise<RpcText | undefined> {
        return this.cliDiffs().closeDiff(id);
    }
}
