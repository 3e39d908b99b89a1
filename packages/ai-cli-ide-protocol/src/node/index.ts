// Node-only helpers of the IDE-mode protocol. The stdio relay is not here: it is a program of its
// own (lib/node/stdio-bridge-main.js), and the MCP SDK it loads stays out of every importer's start-up.
export * from './auth-token';
export * from './discovery/claude-code-flavour';
export * from './discovery/cli-flavour';
export * from './discovery/discovery-file-cleaner';
export * from './discovery/gemini-cli-flavour';
export * from './discovery/ide-mode-flavours';
export * from './discovery/qwen-code-flavour';
