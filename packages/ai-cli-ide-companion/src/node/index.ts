// What other Theia extensions of this repository use from the companion's backend.
// WindowCompanion is a type here: its module loads the MCP SDK, which the registry imports on the
// first window, not at backend start.
export * from './companion-logger';
export * from './ide-companion-backend-impl';
export type * from './window-companion';
export * from './window-agent-credentials';
export * from './window-companion-registry';
