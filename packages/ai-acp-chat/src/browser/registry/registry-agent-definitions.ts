import { AcpAgentDefinition, AcpAgentDefinitionSchema, InstalledAcpAgent } from '@theia-cli-companion/acp-client/lib/common';

/** The @mention of a registry agent: its registry name as one word of what the chat accepts ("Gemini CLI" → Gemini-CLI). */
export function registryMention(name: string): string {
    return name.replace(/[^A-Za-z0-9_.\s-]/g, '').trim().replace(/\s+/g, '-').replace(/-{2,}/g, '-').slice(0, 40).replace(/^-+|-+$/g, '');
}

export interface RegistryAgentDefinitions {
    readonly definitions: AcpAgentDefinition[];
    /** The registry id of each definition, by its name. */
    readonly registryIds: Map<string, string>;
    /** One sentence per installed agent the chat cannot offer, saying why. */
    readonly problems: string[];
}

/**
 * The chat agents of the agents installed from an ACP Registry, after the `taken` ones (built-ins and
 * the user's own): each under its registry name, starting exactly what its install recorded. One whose
 * name is taken is left out and said so: an installed agent never replaces one the user already has.
 */
export function registryAgentDefinitions(installed: readonly InstalledAcpAgent[], taken: readonly AcpAgentDefinition[]): RegistryAgentDefinitions {
    const definitions: AcpAgentDefinition[] = [];
    const registryIds = new Map<string, string>();
    const problems: string[] = [];
    const isTaken = (name: string) => [...taken, ...definitions].some(other => other.name.toLowerCase() === name.toLowerCase());
    for (const agent of installed) {
        const name = registryMention(agent.name) || registryMention(agent.id);
        if (isTaken(name)) {
            problems.push(`The agent "${agent.name}" installed from the ACP Registry is not offered: the chat already has an agent @${name}`);
            continue;
        }
        const parsed = AcpAgentDefinitionSchema.safeParse({
            name, command: agent.launch.command, args: agent.launch.args, env: agent.launch.env,
            description: `${agent.description} (ACP Registry, ${agent.version})`.slice(0, 200),
            installCommand: agent.distribution === 'uvx'
                ? 'uv (it brings uvx; https://docs.astral.sh/uv/), then start the chat again'
                : 'CLI Companion: Add Agent from ACP Registry…'
        });
        if (parsed.success) {
            definitions.push(parsed.data);
            registryIds.set(name, agent.id);
        } else {
            problems.push(`The agent "${agent.name}" installed from the ACP Registry is not offered: its record cannot be started`);
        }
    }
    return { definitions, registryIds, problems };
}
