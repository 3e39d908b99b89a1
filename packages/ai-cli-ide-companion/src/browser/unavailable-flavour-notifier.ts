import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { CLI_FLAVOUR_DISPLAY_NAMES } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { WindowServerService, WindowServerState } from '@theia-cli-companion/ai-cli-core/lib/browser';

/**
 * Tells the user, once per CLI and reason, when the window serves the other CLIs but not this one
 * (its discovery file could not be written: a directory taken by another account, a full disk).
 */
@injectable()
export class UnavailableFlavourNotifier implements FrontendApplicationContribution {

    @inject(WindowServerService) protected readonly companion: WindowServerService;
    @inject(MessageService) protected readonly messages: MessageService;

    protected readonly told = new Set<string>();

    onStart(): void {
        this.check(this.companion.state);
        this.companion.onDidChangeState(state => this.check(state));
    }

    protected check(state: WindowServerState): void {
        if (state.kind !== 'running') {
            return;
        }
        for (const { flavour, reason } of state.status.unavailableFlavours) {
            const key = `${flavour}\n${reason}`;
            if (!this.told.has(key)) {
                this.told.add(key);
                this.messages.warn(nls.localize('theia-cli-companion/ide-companion/flavourUnavailable',
                    '{0} cannot connect to this window: {1}. The other CLIs are not affected.', CLI_FLAVOUR_DISPLAY_NAMES[flavour], reason));
            }
        }
    }
}
