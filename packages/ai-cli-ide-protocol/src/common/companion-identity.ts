/**
 * How the companion presents itself. `ideInfo` in a discovery file is what makes the CLIs accept a
 * non-VS Code IDE (without it they require TERM_PROGRAM=vscode, which Theia terminals do not set);
 * the name must not be `vscode`, or the Gemini CLI tries `code --install-extension`.
 */
export const THEIA_IDE_INFO = Object.freeze({ name: 'theia', displayName: 'Eclipse Theia' });

/**
 * Whether a discovery file is one of ours: it records its writer (`theiaCompanion`, whatever IDE it
 * names), or it is a Theia one of a version that did not record it. The official companions' files
 * (`vscode`, no writer) are never ours.
 */
export function isCompanionFile(ideName: string, writer: object | undefined): boolean {
    return writer !== undefined || ideName === THEIA_IDE_INFO.name || ideName === THEIA_IDE_INFO.displayName;
}

/** MCP `serverInfo` sent in every initialize result, identical for every CLI flavour. */
export const COMPANION_SERVER_INFO = Object.freeze({ name: 'theia-ai-cli-ide-companion', version: '0.1.0' });

/** The HTTP path of the MCP endpoint on every window server. */
export const MCP_ENDPOINT_PATH = '/mcp';

/** The largest MCP request body a window server takes (a proposal of a large file fits). */
export const MCP_MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/**
 * The largest message a CLI's MCP stdio transport reads (the SDK's default, which Gemini CLI and Qwen Code
 * keep): one line beyond it ends the CLI's connection. Over the stdio relay, what the IDE answers a
 * proposal with (`ide/diffAccepted` carries the whole file) must fit in it.
 */
export const CLI_STDIO_MESSAGE_LIMIT = 10 * 1024 * 1024;
