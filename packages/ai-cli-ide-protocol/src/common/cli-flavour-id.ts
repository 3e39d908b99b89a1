import { CLI_CATALOGUE, CliDescription } from '@theia-cli-companion/cli-process/lib/common';

/**
 * The terminal CLIs whose IDE contract the companion serves: Gemini CLI and Qwen Code over MCP
 * Streamable HTTP, Claude Code over its WebSocket MCP contract.
 */
export type CliFlavourId = 'gemini' | 'qwen' | 'claude';
export const CLI_FLAVOUR_IDS: readonly CliFlavourId[] = Object.freeze(['gemini', 'qwen', 'claude']);
export const CLI_FLAVOUR_DISPLAY_NAMES: Readonly<Record<CliFlavourId, string>> = Object.freeze({
    gemini: CLI_CATALOGUE.gemini.displayName,
    qwen: CLI_CATALOGUE.qwen.displayName,
    claude: CLI_CATALOGUE.claude.displayName
});
/** The flavours served over the window's WebSocket endpoint instead of its HTTP one. */
export const WEBSOCKET_FLAVOUR_IDS: readonly CliFlavourId[] = Object.freeze(['claude']);
/** How each CLI is installed and started (from the catalogue). */
export const CLI_FLAVOUR_PACKAGES: Readonly<Record<CliFlavourId, CliDescription>> = CLI_CATALOGUE;
