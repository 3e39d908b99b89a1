import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { WorkspaceTrustService } from '@theia/workspace/lib/browser/workspace-trust-service';

/**
 * Nothing that runs code for the user (a CLI, an ACP agent, an agent task) starts in a workspace the
 * user has not trusted without asking: Theia's own trust dialog, so a yes trusts the workspace for
 * everything else too, and a no (or closing it) starts nothing. With workspace trust turned off in
 * the settings every workspace counts as trusted, as everywhere in Theia.
 */
@injectable()
export class WorkspaceTrustGate {

    @inject(WorkspaceTrustService) protected readonly trust: WorkspaceTrustService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(ILogger) @named('ai-cli-core:WorkspaceTrustGate') protected readonly logger: ILogger;

    /** Whether `what` (e.g. "Gemini CLI") may start now; asks the user when the workspace is not trusted. */
    async mayStart(what: string): Promise<boolean> {
        if (await this.trust.getWorkspaceTrust()) {
            return true;
        }
        this.logger.info(`${what} waits for the user to trust this workspace`);
        if (await this.trust.requestWorkspaceTrust()) {
            return true;
        }
        const message = nls.localize('theia-cli-companion/cli-core/untrustedNotStarted',
            '{0} was not started: this workspace is not trusted. Trust it (Manage Workspace Trust) to let agents and CLIs run in it.', what);
        this.logger.warn(message);
        this.messages.warn(message);
        return false;
    }
}
