/**
 * Whether a command name of the agent's can be offered after "/": any name the input can hold on one line (Codex's
 * `$skill`, Claude Code's `mcp:server:prompt`, Gemini CLI's `memory show`), at most 100 characters. Theia's chat
 * takes only word-like names as its own commands; the others stay text, which goes to the agent as typed.
 */
export function isOfferableCommandName(name: unknown): name is string {
    return typeof name === 'string' && /^[^\s/\p{C}][^\p{C}]{0,99}$/u.test(name) && name.trim() === name;
}
