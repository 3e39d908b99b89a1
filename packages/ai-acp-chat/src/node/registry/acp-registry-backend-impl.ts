import * as path from 'path';
import { inject, injectable } from '@theia/core/shared/inversify';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { AcpRegistryClient, AcpRegistryInstaller } from '@theia-cli-companion/acp-client/lib/node';
import { AcpInstalledAgents, AcpRegistryBackend, AcpRegistryListing } from '../../common/acp-registry-protocol';
import type { InstalledAcpAgent } from '@theia-cli-companion/acp-client/lib/common';

/** One for the backend: installs of one agent run one after another, whichever window asked. */
@injectable()
export class AcpRegistryBackendImpl implements AcpRegistryBackend {

    @inject(EnvVariablesServer) protected readonly envVariables: EnvVariablesServer;

    protected installer?: Promise<AcpRegistryInstaller>;

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

    /** Agents live in the user's Theia configuration folder (THEIA_CONFIG_DIR, else ~/.theia): never the workspace's. */
    protected getInstaller(): Promise<AcpRegistryInstaller> {
        this.installer ??= this.envVariables.getConfigDirUri().then(uri => new AcpRegistryInstaller({ root: path.join(FileUri.fsPath(uri), 'acp-agents') }));
        return this.installer;
    }
}
