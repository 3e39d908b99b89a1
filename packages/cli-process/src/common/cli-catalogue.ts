/** What the companion knows of one AI CLI: read by every feature instead of repeating it. */
export interface CliDescription {
    readonly id: string;
    /** How the CLI calls itself: status bar, status view, diff titles, messages. */
    readonly displayName: string;
    readonly npmPackage: string;
    /** The executable its npm package installs. */
    readonly command: string;
    /** Its ACP mode, offered in the AI chat as `@agentName` (absent: none built in). */
    readonly acp?: { readonly agentName: string; readonly args: readonly string[]; readonly description: string };
}

/**
 * The CLIs the companion works with, as their own documentation names, installs and starts them.
 * A new CLI starts here; each feature then says what it does with it (see ARCHITECTURE.md).
 */
export const CLI_CATALOGUE = Object.freeze({
    gemini: {
        id: 'gemini', displayName: 'Gemini CLI', npmPackage: '@google/gemini-cli', command: 'gemini',
        acp: { agentName: 'Gemini', args: ['--acp'], description: 'Google Gemini CLI as an ACP agent (gemini --acp)' }
    },
    qwen: {
        id: 'qwen', displayName: 'Qwen Code', npmPackage: '@qwen-code/qwen-code', command: 'qwen',
        acp: { agentName: 'Qwen', args: ['--acp'], description: 'Qwen Code as an ACP agent (qwen --acp)' }
    },
    claude: { id: 'claude', displayName: 'Claude Code', npmPackage: '@anthropic-ai/claude-code', command: 'claude' }
} as const satisfies Record<string, CliDescription>);

export type CatalogueCliId = keyof typeof CLI_CATALOGUE;

/** The command that installs a CLI, shown when it is not found. */
export function installCommandOf(cli: CliDescription): string {
    return `npm install -g ${cli.npmPackage}`;
}
