import { CLI_CATALOGUE, CliDescription, IdeModeCliId } from '@theia-cli-companion/cli-process/lib/common';

/**
 * The terminal CLIs whose IDE contract the companion serves: the catalogue's CLIs with an IDE mode
 * (Gemini CLI and Qwen Code over MCP Streamable HTTP, Claude Code over its WebSocket MCP contract).
 */
export type CliFlavourId = IdeModeCliId;
export const CLI_FLAVOUR_IDS: readonly CliFlavourId[] = Object.freeze(
    Object.values(CLI_CATALOGUE).flatMap(cli => 'ideMode' in cli ? [cli.id] : []));
export const CLI_FLAVOUR_DISPLAY_NAMES: Readonly<Record<CliFlavourId, string>> = Object.freeze(
    Object.fromEntries(CLI_FLAVOUR_IDS.map(id => [id, CLI_CATALOGUE[id].displayName])) as Record<CliFlavourId, string>);
/** How each CLI is installed and started (from the catalogue). */
export const CLI_FLAVOUR_PACKAGES: Readonly<Record<CliFlavourId, CliDescription>> = CLI_CATALOGUE;
