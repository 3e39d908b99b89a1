// What a `WindowModuleContribution` builds on: the window's graph, its endpoints and tool contributions.
// This entry point loads the MCP SDK: import it from a module loaded on the first window (loadModule),
// not from a backend module.
export * from '../companion-mcp-server';
export * from '../diff-review-manager';
export * from '../ide-context-tools';
export * from '../ide-diff-tools';
export * from '../loopback-server';
export * from '../mcp-endpoint';
export * from '../mcp-request-guard';
export * from '../mcp-tool-contribution';
export * from '../mcp-tool-results';
export * from '../refusal-log';
export * from '../window-companion';
export * from '../window-companion-module';
export * from '../window-companion-options';
export * from '../window-context';
export * from '../window-credentials';
export * from '../window-event-log';
