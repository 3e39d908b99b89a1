import { z } from 'zod';
import { acpLaunchOf, CLI_CATALOGUE, CliDescription, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

/**
 * An ACP agent the IDE can start: a command that speaks ACP on its stdio. The name is how the
 * user addresses it in the chat (`@Name`), so it must be a single word of the characters Theia's
 * chat accepts in a mention.
 */
export const AcpAgentDefinitionSchema = z.object({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'must be 1–40 letters, digits, "_", "-" or "." (it is the @mention in the chat)'),
    command: z.string().trim().min(1, 'must name the executable to start'),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    description: z.string().max(200).optional(),
    /** Shown when the command is not found, e.g. `npm install -g @google/gemini-cli`. */
    installCommand: z.string().optional()
}).strict();

export type AcpAgentDefinition = z.infer<typeof AcpAgentDefinitionSchema>;

/** The agents the IDE knows without configuration: the catalogue's CLIs that have an ACP mode. */
export const BUILT_IN_ACP_AGENTS: readonly AcpAgentDefinition[] = Object.values<CliDescription>(CLI_CATALOGUE).flatMap(cli => cli.acp ? [{
    name: cli.acp.agentName, args: [...cli.acp.args], env: {}, description: cli.acp.description, ...acpLaunchOf({ ...cli, acp: cli.acp })
}] : []);

export interface ParsedAgentDefinitions {
    readonly definitions: AcpAgentDefinition[];
    /** One sentence per entry that was left out, saying which entry and what was wrong. */
    readonly problems: string[];
}

/**
 * Validates the user's agent list entry by entry: a bad entry is reported and left out, the good
 * ones are kept. A built-in agent cannot be replaced: an entry with a built-in's name is left out
 * (whatever is called @Gemini always runs `gemini --acp`, and its stored key goes to nothing else).
 */
export function parseAgentDefinitions(value: unknown, builtIns: readonly AcpAgentDefinition[] = BUILT_IN_ACP_AGENTS): ParsedAgentDefinitions {
    const problems: string[] = [];
    const user: AcpAgentDefinition[] = [];
    if (value !== undefined && value !== null && !Array.isArray(value)) {
        problems.push(`The agent list must be an array of {name, command, args, env} objects, not ${typeof value}`);
    }
    const builtInNamed = (name: string) => BUILT_IN_ACP_AGENTS.some(builtIn => builtIn.name.toLowerCase() === name.toLowerCase());
    (Array.isArray(value) ? value : []).forEach((entry, index) => {
        const parsed = AcpAgentDefinitionSchema.safeParse(entry);
        if (!parsed.success) {
            const label = typeof (entry as { name?: unknown })?.name === 'string' ? `"${(entry as { name: string }).name}"` : `#${index + 1}`;
            problems.push(`Agent ${label} is ignored: ${formatZodIssues(parsed.error, 'entry', ' ')}`);
        } else if (builtInNamed(parsed.data.name)) {
            problems.push(`Agent "${parsed.data.name}" is ignored: a built-in agent has that name and cannot be replaced; give yours a name of its own`);
        } else if (user.some(other => other.name.toLowerCase() === parsed.data.name.toLowerCase())) {
            problems.push(`Agent "${parsed.data.name}" is defined twice; the first definition is used`);
        } else {
            user.push(parsed.data);
        }
    });
    return { definitions: [...builtIns, ...user], problems };
}

/**
 * Who an agent is, for what is kept for it (its API keys): a built-in by its name, a user's agent by
 * what it runs (command, arguments and the names of the variables it sets), so an agent redefined to
 * run something else never receives what was given to the earlier one. Variable values are left out:
 * they may hold secrets, and this string names a secret storage entry.
 */
export function agentIdentity(definition: AcpAgentDefinition): string {
    if (BUILT_IN_ACP_AGENTS.some(builtIn => builtIn.name === definition.name && builtIn.command === definition.command
        && JSON.stringify(builtIn.args) === JSON.stringify(definition.args) && !Object.keys(definition.env).length)) {
        return `built-in:${definition.name}`;
    }
    return `user:${JSON.stringify([definition.name, definition.command, definition.args, Object.keys(definition.env).sort()])}`;
}
