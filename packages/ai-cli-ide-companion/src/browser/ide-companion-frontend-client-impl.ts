import { injectable } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { CompanionEvent, DiffProposal, IdeCompanionFrontendClient, WindowCompanionStatus } from '../common/ide-companion-protocol';
import { RpcText, toRpcText } from '../common/rpc-text';

/** What handles the backend's diff requests in this window (the diff review service). */
export interface DiffRequestHandler {
    openDiff(proposal: DiffProposal): Promise<void>;
    closeDiff(id: string): Promise<string | undefined>;
}

/** Receives the backend's pushes and requests for this window. */
@injectable()
export class IdeCompanionFrontendClientImpl implements IdeCompanionFrontendClient {
    protected readonly onDidChangeStatusEmitter = new Emitter<WindowCompanionStatus>();
    readonly onDidChangeStatus: Event<WindowCompanionStatus> = this.onDidChangeStatusEmitter.event;
    protected readonly onDidLogEmitter = new Emitter<CompanionEvent>();
    readonly onDidLog: Event<CompanionEvent> = this.onDidLogEmitter.event;
    protected diffHandler?: DiffRequestHandler;

    /** Set by the diff review service; kept apart to avoid a cycle with the backend proxy. */
    setDiffHandler(handler: DiffRequestHandler): void {
        this.diffHandler = handler;
    }

    notifyStatusChanged(status: WindowCompanionStatus): void {
        this.onDidChangeStatusEmitter.fire(status);
    }

    notifyEvent(event: CompanionEvent): void {
        this.onDidLogEmitter.fire(event);
    }

    async openDiff(proposal: DiffProposal): Promise<void> {
        if (!this.diffHandler) {
            throw new Error('Diff review is not available in this window');
        }
        return this.diffHandler.openDiff(proposal);
    }

    async closeDiff(id: string): Promise<RpcText | undefined> {
        const text = await this.diffHandler?.closeDiff(id);
        return text === undefined ? undefined : toRpcText(text);
    }
}
