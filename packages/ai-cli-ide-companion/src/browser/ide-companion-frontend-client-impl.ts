import { injectable } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { IdeCompanionFrontendClient, WindowCompanionStatus } from '../common/ide-companion-protocol';

/** Receives the backend's pushes for this window. */
@injectable()
export class IdeCompanionFrontendClientImpl implements IdeCompanionFrontendClient {
    protected readonly onDidChangeStatusEmitter = new Emitter<WindowCompanionStatus>();
    readonly onDidChangeStatus: Event<WindowCompanionStatus> = this.onDidChangeStatusEmitter.event;

    notifyStatusChanged(status: WindowCompanionStatus): void {
        this.onDidChangeStatusEmitter.fire(status);
    }
}
