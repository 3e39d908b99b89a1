import { inject, injectable, named } from '@theia/core/shared/inversify';
import { Command, CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { QuickInputService, QuickPickItem } from '@theia/core/lib/common/quick-pick-service';
import { TabBarToolbarContribution, TabBarToolbarRegistry } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { codicon } from '@theia/core/lib/browser/widgets/widget';
import { ChatViewWidget } from '@theia/ai-chat-ui/lib/browser/chat-view-widget';
import { ExecutionSettings } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import type { AcpRegistryAgent, InstalledAcpAgent } from '@theia-cli-companion/acp-client/lib/common';
import { ACP_REGISTRY_URL_PREF } from '../../common/acp-chat-preferences';
import { AcpRegistryBackend } from '../../common/acp-registry-protocol';
import { AcpRegistryAgents } from './acp-registry-agents';
import { registryMention } from './registry-agent-definitions';

/** The companion's commands share one category, localized once (by ai-cli-core). */
const CATEGORY_KEY = 'theia-cli-companion/ide-companion/category';
export namespace AcpRegistryCommands {
    export const ADD = Command.toLocalizedCommand({ id: 'aiCliCompanion.acp.addFromRegistry', category: 'CLI Companion', label: 'Add Agent from ACP Registry…' },
        'theia-cli-companion/acp-chat/addFromRegistry', CATEGORY_KEY);
    export const REMOVE = Command.toLocalizedCommand({
        id: 'aiCliCompanion.acp.removeRegistryAgent', category: 'CLI Companion', label: 'Remove Agent Installed from ACP Registry…'
    }, 'theia-cli-companion/acp-chat/removeRegistryAgent', CATEGORY_KEY);
}

/**
 * *Add Agent from ACP Registry…* (the palette and the chat view's toolbar): lists the agents of the
 * registry the user's settings name, and installs the one picked for this user; an installed one is
 * updated to the registry's version, or removed with *Remove Agent Installed from ACP Registry…*.
 */
@injectable()
export class AcpRegistryCommandContribution implements CommandContribution, TabBarToolbarContribution {

    @inject(AcpRegistryBackend) protected readonly backend: AcpRegistryBackend;
    @inject(AcpRegistryAgents) protected readonly agents: AcpRegistryAgents;
    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(ILogger) @named('ai-acp-chat:AcpRegistry') protected readonly logger: ILogger;

    registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(AcpRegistryCommands.ADD, { execute: () => this.addFromRegistry() });
        commands.registerCommand(AcpRegistryCommands.REMOVE, { execute: () => this.removeInstalled() });
    }

    registerToolbarItems(toolbar: TabBarToolbarRegistry): void {
        toolbar.registerItem({
            id: AcpRegistryCommands.ADD.id, command: AcpRegistryCommands.ADD.id, tooltip: AcpRegistryCommands.ADD.label,
            icon: codicon('extensions'), isVisible: widget => widget?.id === ChatViewWidget.ID
        });
    }

    /** The registry's URL: the user's setting only, as anything that decides what runs. */
    registryUrl(): string {
        return this.settings.get<string>(ACP_REGISTRY_URL_PREF) ?? '';
    }

    async addFromRegistry(): Promise<void> {
        const url = this.registryUrl();
        const listing = await this.readRegistry(url);
        if (!listing) {
            return;
        }
        await this.agents.refresh();
        const installed = new Map(this.agents.installed.map(agent => [agent.id, agent]));
        const items: (QuickPickItem & { agent: AcpRegistryAgent })[] = listing.agents.map(agent => ({
            agent,
            label: agent.name,
            description: [agent.version, agent.license, this.installState(agent, installed.get(agent.id))].filter(Boolean).join(' · '),
            detail: [agent.description, agent.website ?? agent.repository].filter(Boolean).join(' — ')
        }));
        const picked = await this.quickInput.showQuickPick(items, {
            placeholder: nls.localize('theia-cli-companion/acp-chat/pickRegistryAgent', 'An agent of the ACP Registry to install for you ({0} listed)', items.length)
        });
        if (!picked) {
            return;
        }
        if (installed.get(picked.agent.id)?.version === picked.agent.version) {
            this.messages.info(nls.localize('theia-cli-companion/acp-chat/registryAgentCurrent', '{0} {1} is installed: address it as @{2} in the chat.',
                picked.agent.name, picked.agent.version, registryMention(picked.agent.name)));
            return;
        }
        await this.install(url, picked.agent);
    }

    /** Installs or updates `agent` from the registry at `url`, with a progress notice. */
    async install(url: string, agent: Pick<AcpRegistryAgent, 'id' | 'name' | 'version'>): Promise<boolean> {
        const progress = await this.messages.showProgress({
            text: nls.localize('theia-cli-companion/acp-chat/installingRegistryAgent', 'Installing {0} {1} from the ACP Registry…', agent.name, agent.version)
        });
        try {
            const { agent: done, warnings } = await this.backend.install(url, agent.id);
            await this.agents.refresh();
            this.logger.info(`Installed ${done.id} ${done.version} (${done.distribution}: ${done.source})`);
            this.messages.info(nls.localize('theia-cli-companion/acp-chat/installedRegistryAgent', '{0} {1} is installed: address it as @{2} in the chat.',
                done.name, done.version, registryMention(done.name)));
            warnings.forEach(warning => this.messages.warn(warning));
            return true;
        } catch (error) {
            this.logger.error(describeError(error));
            this.messages.error(nls.localize('theia-cli-companion/acp-chat/registryInstallFailed', '{0} was not installed: {1}', agent.name, describeError(error)));
            return false;
        } finally {
            progress.cancel();
        }
    }

    async removeInstalled(): Promise<void> {
        await this.agents.refresh();
        if (!this.agents.installed.length) {
            this.messages.info(nls.localize('theia-cli-companion/acp-chat/noRegistryAgents', 'No agent is installed from the ACP Registry.'));
            return;
        }
        const picked = await this.quickInput.showQuickPick(this.agents.installed.map(agent => ({ agent, label: agent.name, description: agent.version })), {
            placeholder: nls.localize('theia-cli-companion/acp-chat/pickRemove', 'An agent installed from the ACP Registry to remove')
        });
        if (!picked) {
            return;
        }
        try {
            await this.backend.remove(picked.agent.id);
            await this.agents.refresh();
            this.messages.info(nls.localize('theia-cli-companion/acp-chat/removedRegistryAgent', '{0} is removed.', picked.agent.name));
        } catch (error) {
            this.messages.error(nls.localize('theia-cli-companion/acp-chat/removeFailed', '{0} could not be removed: {1}', picked.agent.name, describeError(error)));
        }
    }

    /** The registry's agents; undefined (the user told why) when it cannot be read. */
    async readRegistry(url: string, quiet = false): Promise<{ agents: readonly AcpRegistryAgent[] } | undefined> {
        try {
            const listing = await this.backend.fetchRegistry(url);
            listing.problems.forEach(problem => this.logger.warn(`ACP Registry ${url}: ${problem}`));
            return listing;
        } catch (error) {
            this.logger.warn(`The ACP Registry at ${url} could not be read: ${describeError(error)}`);
            if (!quiet) {
                this.messages.error(nls.localize('theia-cli-companion/acp-chat/registryUnreadable',
                    'The ACP Registry at {0} could not be read: {1}. Agents installed from it keep working.', url, describeError(error)));
            }
            return undefined;
        }
    }

    protected installState(agent: AcpRegistryAgent, installed: InstalledAcpAgent | undefined): string | undefined {
        if (!installed) {
            return undefined;
        }
        return installed.version === agent.version
            ? nls.localize('theia-cli-companion/acp-chat/registryInstalled', 'installed')
            : nls.localize('theia-cli-companion/acp-chat/registryUpdate', 'installed {0}: update', installed.version);
    }
}
