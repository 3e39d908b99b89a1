import { inject, injectable } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import {
    CompanionEvent, DiffProposal, IdeCompanionFrontendClient, OpenFileRequest, WindowCompanionStatus, RpcText, toRpcText
} from '@theia-cli-companion/ide-companion-server/lib/common';
import type { DocumentState, FileDiagnostics } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

/** What handles the backend's diff requests in this window (the diff review service). */
export const DiffRequestHandler = Symbol('DiffRequestHandler');
export interface DiffRequestHandler {
    openDiff(proposal: DiffProposal): Promise<void>;
    closeDiff(id: string): Promise<string | undefined>;
}

/**
 * Resolves the diff handler when the first request comes: it talks to the backend through the proxy
 * this client serves, so it cannot be injected here directly.
 */
export const DiffRequestHandlerFactory = Symbol('DiffRequestHandlerFactory');
export type DiffRequestHandlerFactory = () => DiffRequestHandler;

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
export class IdeCompanionFrontendClientImpl implements IdeCompanionFrontendClient {
    protected readonly onDidChangeStatusEmitter = new Emitter<WindowCompanionStatus>();
    readonly onDidChangeStatus: Event<WindowCompanionStatus> = this.onDidChangeStatusEmitter.event;
    protected readonly onDidLogEmitter = new Emitter<CompanionEvent>();
    readonly onDidLog: Event<CompanionEvent> = this.onDidLogEmitter.event;

    @inject(DiffRequestHandlerFactory)
    protected readonly diffHandler: DiffRequestHandlerFactory;

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

    notifyStatusChanged(status: WindowCompanionStatus): void {
        this.onDidChangeStatusEmitter.fire(status);
    }

    notifyEvent(event: CompanionEvent): void {
        this.onDidLogEmitter.fire(event);
    }

    async openDiff(proposal: DiffProposal): Promise<void> {
        return this.diffHandler().openDiff(proposal);
    }

    async closeDiff(id: string): Promise<RpcText | undefined> {
        const text = await this.diffHandler().closeDiff(id);
        return text === undefined ? undefined : toRpcText(text);
    }
}
