// One window's graph: its endpoints (Streamable HTTP, Claude Code's WebSocket), the tools they give
// their sessions, diff review and the `WindowCompanion` that ties them to the window's life. This entry
// point loads the MCP SDK: import it when the first window starts, not at a host's startup.
export * from '../applied-change-ledger';
export * from '../claude-ide-tools';
export * from '../claude-selection';
export * from '../claude-websocket-server';
export * from '../claude-window-module';
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
export * from '../window-context';
export * from '../window-credentials';
export * from '../window-event-log';
export * from '../websocket-server-transport';
