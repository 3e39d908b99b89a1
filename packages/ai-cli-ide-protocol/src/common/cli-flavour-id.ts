/** The terminal CLIs whose IDE-mode contract the companion serves over MCP Streamable HTTP. */
export type CliFlavourId = 'gemini' | 'qwen';
export const CLI_FLAVOUR_DISPLAY_NAMES: Readonly<Record<CliFlavourId, string>> = Object.freeze({
    gemini: 'Gemini CLI',
    qwen: 'Qwen Code'
});
