import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { AcpRegistryAgent, AcpRegistryAgentSchema, AcpRegistryIndexSchema } from './acp-registry-schema';

export interface ParsedAcpRegistry {
    /** The registry format's version (`1.0.0`). */
    readonly version: string;
    readonly agents: AcpRegistryAgent[];
    /** One sentence per entry that was left out or changed, saying which entry and what was wrong. */
    readonly problems: string[];
}

export interface ParseAcpRegistryOptions {
    /** Where the index came from: relative icon paths (`./icon.svg` in an agent.json) are resolved against it. */
    readonly baseUrl?: string;
}

/** The format versions this client was written for: 1.x. A newer major version is read, and the reader is told. */
const KNOWN_MAJOR = 1;

/**
 * Reads a registry index entry by entry: a malformed agent is reported by its id and left out, the
 * others are kept, so one bad entry never hides the registry. Throws only when the file as a whole is
 * not a registry (not an object, no `agents` array), with a sentence that says so.
 */
export function parseAcpRegistry(json: unknown, options: ParseAcpRegistryOptions = {}): ParsedAcpRegistry {
    const index = AcpRegistryIndexSchema.safeParse(json);
    if (!index.success) {
        throw new Error(`This is not an ACP registry index: ${formatZodIssues(index.error, 'the file')}`);
    }
    const problems: string[] = [];
    const major = Number(index.data.version.split('.')[0]);
    if (major > KNOWN_MAJOR) {
        problems.push(`The registry's format is version ${index.data.version}, newer than this client knows (${KNOWN_MAJOR}.x); entries that do not fit are left out`);
    }
    const agents: AcpRegistryAgent[] = [];
    index.data.agents.forEach((entry, position) => {
        const agent = parseAgent(entry, position, options, problems);
        if (agent && agents.some(other => other.id === agent.id)) {
            problems.push(`Agent "${agent.id}" is listed twice; the first entry is used`);
        } else if (agent) {
            agents.push(agent);
        }
    });
    return { version: index.data.version, agents, problems };
}

function parseAgent(entry: unknown, position: number, options: ParseAcpRegistryOptions, problems: string[]): AcpRegistryAgent | undefined {
    const record = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? entry as Record<string, unknown> : undefined;
    const label = typeof record?.id === 'string' ? `"${record.id.slice(0, 80)}"` : `#${position + 1}`;
    if (!record) {
        problems.push(`Agent ${label} is left out: it is not an object`);
        return undefined;
    }
    const withIcon = { ...record, icon: resolveIcon(record.icon, options.baseUrl) };
    const parsed = AcpRegistryAgentSchema.safeParse(withIcon);
    if (parsed.success) {
        return parsed.data;
    }
    // A bad icon is not worth losing the agent for: keep it without one, and say so.
    if (parsed.error.issues.every(issue => issue.path[0] === 'icon')) {
        problems.push(`Agent ${label}: its icon is not shown: ${formatZodIssues(parsed.error)}`);
        return AcpRegistryAgentSchema.parse({ ...withIcon, icon: undefined });
    }
    problems.push(`Agent ${label} is left out: ${formatZodIssues(parsed.error, 'entry')}`);
    return undefined;
}

/** `./icon.svg` (how an agent.json names its icon before the registry's build rewrites it) against the index's URL. */
function resolveIcon(icon: unknown, baseUrl: string | undefined): unknown {
    if (typeof icon !== 'string' || !baseUrl || /^[a-z][a-z0-9+.-]*:/i.test(icon)) {
        return icon;
    }
    try {
        return new URL(icon, baseUrl).href;
    } catch {
        return icon;
    }
}
