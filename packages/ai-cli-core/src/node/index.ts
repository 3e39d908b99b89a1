// What other extensions use from the core's backend at startup. Nothing here loads the MCP SDK: the
// window's graph (the server package's lib/node/window) is loaded on the first window, not at backend start.
export type { AgentCredential, WindowLogger, WindowServer } from '@theia-cli-companion/ide-companion-server/lib/node';
export * from './ide-companion-backend-impl';
export * from './keep-awake/agent-work-registry';
export * from './snapshots';
export * from './storage-usage-contribution';
export * from './window-agent-credentials';
export * from './window-server-registry';
export * from './window-module-contribution';
