// What a host needs before its first window: nothing here loads the MCP SDK. The window's graph
// (lib/node/window) is loaded when the first window starts.
export * from './companion-logger';
export * from './contributions';
export * from './file-uri';
export * from './discovery/stdio-bridge-command';
export * from './window-companion-options';
export type * from './window-companion';
