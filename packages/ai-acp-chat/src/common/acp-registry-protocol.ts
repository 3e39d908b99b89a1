import type { AcpRegistryAgent, InstalledAcpAgent } from '@theia-cli-companion/acp-client/lib/common';

export const acpRegistryServicePath = '/services/ai-acp-chat/registry';

/** The agents a registry lists, and one sentence per entry left out as malformed. */
export interface AcpRegistryListing {
    readonly agents: readonly AcpRegistryAgent[];
    readonly problems: readonly string[];
}

export interface AcpInstalledAgents {
    readonly agents: readonly InstalledAcpAgent[];
    /** One sentence per agent folder whose record is missing or damaged. */
    readonly problems: readonly string[];
}

/**
 * Agents from an ACP Registry, installed for the user who runs the backend (into their Theia
 * configuration folder, no global install). The registry's URL comes with each call from the user's
 * settings; an install fetches the registry again and takes the entry from it, so what is installed
 * is exactly what that registry says.
 */
export const AcpRegistryBackend = Symbol('AcpRegistryBackend');
export interface AcpRegistryBackend {
    /** Rejects with a message that says what was wrong (unreachable, status, not a registry). */
    fetchRegistry(url: string): Promise<AcpRegistryListing>;
    installed(): Promise<AcpInstalledAgents>;
    /** Installs (or updates to) the registry's current version of `agentId`; what the user must still do, if anything. */
    install(url: string, agentId: string): Promise<{ readonly agent: InstalledAcpAgent; readonly warnings: readonly string[] }>;
    /** Removes every version of `agentId`; whether there was one. */
    remove(agentId: string): Promise<boolean>;
    /** The installed agent's icon as an SVG or PNG `data:` URL; undefined when it has none or it cannot be had. */
    icon(agentId: string): Promise<string | undefined>;
}
