import * as path from 'path';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { AcpRegistryClient, AcpRegistryInstaller, fetchAgentIcon } from '@theia-cli-companion/acp-client/lib/node';
import { AcpInstalledAgents, AcpRegistryBackend, AcpRegistryListing } from '../../common/acp-registry-protocol';
import type { InstalledAcpAgent } from '@theia-cli-companion/acp-client/lib/common';

/** One for the backend: installs of one agent run one after another, whichever window asked. */
@injectable()
export class AcpRegistryBackendImpl implements AcpRegistryBackend {

    @inject(EnvVariablesServer) protected readonly envVariables: EnvVariablesServer;
    @inject(ILogger) @named('ai-acp-chat:AcpRegistry') protected readonly logger: ILogger;

    protected installer?: Promise<AcpRegistryInstaller>;
    /** By icon URL: fetched once per backend, for every window. */
    protected readonly icons = new Map<string, Promise<string | undefined>>();

    async fetchRegistry(url: string): Promise<AcpRegistryListing> {
        const { agents, problems } = await new AcpRegistryClient({ url }).fetchRegistry();
        return { agents, problems };
    }

    async installed(): Promise<AcpInstalledAgents> {
        return (await this.getInstaller()).list();
    }

    async install(url: string, agentId: string): Promise<{ agent: InstalledAcpAgent; warnings: string[] }> {
        const { agents } = await this.fetchRegistry(url);
        const entry = agents.find(agent => agent.id === agentId);
        if (!entry) {
            throw new Error(`The ACP Registry at ${url} does not list an agent "${agentId}"`);
        }
        return (await this.getInstaller()).install(entry);
    }

    async remove(agentId: string): Promise<boolean> {
        return (await this.getInstaller()).remove(agentId);
    }

    async icon(agentId: string): Promise<string | undefined> {
        const icon = (await (await this.getInstaller()).installed(agentId))?.icon;
        if (!icon) {
            return undefined;
        }
        let fetched = this.icons.get(icon);
        if (!fetched) {
            fetched = fetchAgentIcon(icon).catch(error => {
                this.logger.warn(`The icon of agent "${agentId}" is not shown: ${describeError(error)}`);
                this.icons.delete(icon);
                return undefined;
            });
            this.icons.set(icon, fetched);
        }
        return fetched;
    }

    /** Agents live in the user's Theia configuration folder (THEIA_CONFIG_DIR, else ~/.theia): never the workspace's. */
    protected getInstaller(): Promise<AcpRegistryInstaller> {
        this.installer ??= this.envVariables.getConfigDirUri().then(uri => new AcpRegistryInstaller({ root: path.join(FileUri.fsPath(uri), 'acp-agents') }));
        return this.installer;
    }
}
