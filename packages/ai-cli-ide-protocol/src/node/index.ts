// Node-only helpers of the IDE-mode protocol.
export * from './auth-token';
export * from './private-file';
export * from './process-liveness';
export * from './discovery/cli-flavour';
export * from './discovery/gemini-cli-flavour';
export * from './discovery/qwen-code-flavour';
export * from './discovery/discovery-file-cleaner';
export * from './stdio-bridge';
export * from './discovery/claude-code-flavour';
