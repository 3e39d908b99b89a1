import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { WorkspaceTrustService } from '@theia/workspace/lib/browser/workspace-trust-service';

/**
 * Nothing that runs code for the user (a CLI, an ACP agent, an agent task) starts in a workspace the
 * user has not trusted without asking. The question is a notification, not a dialog: a modal that
 * opens while the key that started the action is still being delivered takes that Enter as its
 * answer (measured: the chat's Enter accepted Theia's trust dialog before the user saw it). Its
 * action opens Theia's own trust dialog from a click, so a yes trusts the workspace for everything
 * else too; closing either starts nothing. With workspace trust turned off in the settings every
 * workspace counts as trusted, as everywhere in Theia.
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
        const trustAction = nls.localize('theia-cli-companion/cli-core/trustWorkspace', 'Trust Workspace…');
        const answer = await this.messages.warn(nls.localize('theia-cli-companion/cli-core/untrustedAsk',
            '{0} runs code in this workspace, which you have not trusted. Trust it to start {0}.', what), trustAction);
        if (answer === trustAction && await this.trust.requestWorkspaceTrust()) {
            this.logger.info(`${what} starts: the user trusted this workspace`);
            return true;
        }
        this.logger.warn(`${what} was not started: this workspace is not trusted`);
        return false;
    }
}
