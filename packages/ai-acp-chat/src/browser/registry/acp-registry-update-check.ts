import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { AcpRegistryAgents } from './acp-registry-agents';
import { AcpRegistryCommandContribution } from './acp-registry-command-contribution';

/**
 * Lists the installed registry agents when the window starts, and offers an update of each whose
 * version the registry changed since it was installed. An unreachable registry is only logged: the
 * installed agents keep working.
 */
@injectable()
export class AcpRegistryUpdateCheck implements FrontendApplicationContribution {

    @inject(AcpRegistryAgents) protected readonly agents: AcpRegistryAgents;
    @inject(AcpRegistryCommandContribution) protected readonly registry: AcpRegistryCommandContribution;
    @inject(MessageService) protected readonly messages: MessageService;

    onStart(): void {
        void this.check();
    }

    protected async check(): Promise<void> {
        await this.agents.refresh();
        if (!this.agents.installed.length) {
            return;
        }
        const url = this.registry.registryUrl();
        const listing = await this.registry.readRegistry(url, true);
        for (const installed of this.agents.installed) {
            const listed = listing?.agents.find(agent => agent.id === installed.id);
            if (listed && listed.version !== installed.version) {
                const update = nls.localize('theia-cli-companion/acp-chat/update', 'Update');
                void this.messages.info(nls.localize('theia-cli-companion/acp-chat/registryUpdateAvailable', 'The ACP Registry has {0} {1} (installed: {2}).',
                    listed.name, listed.version, installed.version), update).then(answer => answer === update && this.registry.install(url, listed));
            }
        }
    }
}
