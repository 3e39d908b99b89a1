/** The terminal CLIs whose IDE-mode contract the companion serves over MCP Streamable HTTP. */
export type CliFlavourId = 'gemini' | 'qwen';
export const CLI_FLAVOUR_IDS: readonly CliFlavourId[] = Object.freeze(['gemini', 'qwen']);
export const CLI_FLAVOUR_DISPLAY_NAMES: Readonly<Record<CliFlavourId, string>> = Object.freeze({
    gemini: 'Gemini CLI',
    qwen: 'Qwen Code'
});
/** How each CLI is installed and started, as its own documentation says. */
export const CLI_FLAVOUR_PACKAGES: Readonly<Record<CliFlavourId, { readonly npmPackage: string; readonly command: string }>> = Object.freeze({
    gemini: { npmPackage: '@google/gemini-cli', command: 'gemini' },
    qwen: { npmPackage: '@qwen-code/qwen-code', command: 'qwen' }
});
