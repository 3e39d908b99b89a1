/**
 * How a CLI reaches a window's server in IDE mode: MCP over Streamable HTTP (Gemini CLI, Qwen Code)
 * or Claude Code's MCP over a WebSocket. Each is one endpoint of the window, shared by every CLI that
 * uses it.
 */
export type IdeTransport = 'mcp-streamable-http' | 'claude-code-websocket';

/** How a CLI speaks ACP: its own mode (`gemini --acp`) or a published adapter that drives it. */
export interface AcpModeDescription {
    readonly agentName: string;
    readonly args: readonly string[];
    readonly description: string;
    /** An adapter package with its own executable, where the CLI has no ACP mode of its own. */
    readonly adapter?: { readonly npmPackage: string; readonly command: string };
}

/** What the companion knows of one AI CLI: read by every feature instead of repeating it. */
export interface CliDescription {
    readonly id: string;
    /** How the CLI calls itself: status bar, status view, diff titles, messages. */
    readonly displayName: string;
    readonly npmPackage: string;
    /** The executable its npm package installs. */
    readonly command: string;
    /** Its ACP mode, offered in the AI chat as `@agentName` (absent: none built in). */
    readonly acp?: AcpModeDescription;
    /** Its IDE mode (absent: none); the CLI's discovery file is described by its flavour. */
    readonly ideMode?: { readonly transport: IdeTransport };
}

/**
 * The CLIs the companion works with, as their own documentation names, installs and starts them.
 * A new CLI starts here; each feature then says what it does with it (see ARCHITECTURE.md).
 */
export const CLI_CATALOGUE = Object.freeze({
    gemini: {
        id: 'gemini', displayName: 'Gemini CLI', npmPackage: '@google/gemini-cli', command: 'gemini',
        ideMode: { transport: 'mcp-streamable-http' },
        acp: { agentName: 'Gemini', args: ['--acp'], description: 'Google Gemini CLI as an ACP agent (gemini --acp)' }
    },
    qwen: {
        id: 'qwen', displayName: 'Qwen Code', npmPackage: '@qwen-code/qwen-code', command: 'qwen',
        ideMode: { transport: 'mcp-streamable-http' },
        acp: { agentName: 'Qwen', args: ['--acp'], description: 'Qwen Code as an ACP agent (qwen --acp)' }
    },
    claude: {
        id: 'claude', displayName: 'Claude Code', npmPackage: '@anthropic-ai/claude-code', command: 'claude',
        ideMode: { transport: 'claude-code-websocket' },
        acp: {
            agentName: 'Claude', args: [], description: 'Anthropic Claude Code as an ACP agent (through the Claude agent ACP adapter)',
            adapter: { npmPackage: '@agentclientprotocol/claude-agent-acp', command: 'claude-agent-acp' }
        }
    },
    codex: {
        id: 'codex', displayName: 'Codex', npmPackage: '@openai/codex', command: 'codex',
        acp: {
            agentName: 'Codex', args: [], description: 'OpenAI Codex as an ACP agent (through the Codex ACP adapter)',
            adapter: { npmPackage: '@agentclientprotocol/codex-acp', command: 'codex-acp' }
        }
    },
    opencode: {
        id: 'opencode', displayName: 'OpenCode', npmPackage: 'opencode-ai', command: 'opencode',
        acp: { agentName: 'OpenCode', args: ['acp'], description: 'OpenCode as an ACP agent (opencode acp)' }
    },
    copilot: {
        id: 'copilot', displayName: 'GitHub Copilot CLI', npmPackage: '@github/copilot', command: 'copilot',
        acp: { agentName: 'Copilot', args: ['--acp'], description: 'GitHub Copilot CLI as an ACP agent (copilot --acp)' }
    }
} as const satisfies Record<string, CliDescription>);

export type CatalogueCliId = keyof typeof CLI_CATALOGUE;

/** The CLIs of the catalogue that have an IDE mode. */
export type IdeModeCliId = { [Id in CatalogueCliId]: typeof CLI_CATALOGUE[Id] extends { readonly ideMode: object } ? Id : never }[CatalogueCliId];

/** The command that installs a CLI, shown when it is not found. */
export function installCommandOf(cli: CliDescription): string {
    return `npm install -g ${cli.npmPackage}`;
}

/** What starts a CLI's ACP mode, and what installs it: the adapter's where it has one. */
export function acpLaunchOf(cli: CliDescription & { acp: AcpModeDescription }): { command: string; installCommand: string } {
    const adapter = cli.acp.adapter;
    return adapter ? { command: adapter.command, installCommand: `npm install -g ${adapter.npmPackage}` } : { command: cli.command, installCommand: installCommandOf(cli) };
}
