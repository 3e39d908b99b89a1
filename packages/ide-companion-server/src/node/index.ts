// What a host needs before its first window: nothing here loads the MCP SDK. The window's graph
// (lib/node/window) is loaded when the first window starts.
export * from './window-logger';
export * from './contributions';
export * from './file-uri';
export * from './discovery/stdio-bridge-command';
export * from './window-server-options';
export type * from './window-server';
// How large a file Undo keeps: a host reading it back uses the same bound.
export { MAX_LEDGER_FILE_BYTES } from './diff/applied-change-ledger';
