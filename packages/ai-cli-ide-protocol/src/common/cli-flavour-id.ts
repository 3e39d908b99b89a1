/**
 * The terminal CLIs whose IDE contract the companion serves: Gemini CLI and Qwen Code over MCP
 * Streamable HTTP, Claude Code over its WebSocket MCP contract.
 */
export type CliFlavourId = 'gemini' | 'qwen' | 'claude';
export const CLI_FLAVOUR_IDS: readonly CliFlavourId[] = Object.freeze(['gemini', 'qwen', 'claude']);
export const CLI_FLAVOUR_DISPLAY_NAMES: Readonly<Record<CliFlavourId, string>> = Object.freeze({
    gemini: 'Gemini CLI',
    qwen: 'Qwen Code',
    claude: 'Claude Code'
});
/** The flavours served over the window's WebSocket endpoint instead of its HTTP one. */
export const WEBSOCKET_FLAVOUR_IDS: readonly CliFlavourId[] = Object.freeze(['claude']);
/** How each CLI is installed and started, as its own documentation says. */
export const CLI_FLAVOUR_PACKAGES: Readonly<Record<CliFlavourId, { readonly npmPackage: string; readonly command: string }>> = Object.freeze({
    gemini: { npmPackage: '@google/gemini-cli', command: 'gemini' },
    qwen: { npmPackage: '@qwen-code/qwen-code', command: 'qwen' },
    claude: { npmPackage: '@anthropic-ai/claude-code', command: 'claude' }
});
