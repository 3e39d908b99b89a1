// What other extensions use from the core's backend at startup. Nothing here loads the MCP SDK: the
// window's graph (lib/node/window) is loaded on the first window, not at backend start.
export * from './companion-logger';
export * from './ide-companion-backend-impl';
export * from './snapshots';
export type * from './window-companion';
export * from './window-agent-credentials';
export * from './window-companion-registry';
export * from './window-module-contribution';
