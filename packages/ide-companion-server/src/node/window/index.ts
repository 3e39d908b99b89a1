// One window's graph: its endpoints (Streamable HTTP, Claude Code's WebSocket), the tools they give
// their sessions, diff review and the `WindowServer` that ties them to the window's life. This entry
// point loads the MCP SDK: import it when the first window starts, not at a host's startup.
export * from '../diff/applied-change-ledger';
export * from '../claude-code/claude-ide-tools';
export * from '../claude-code/claude-tool';
export * from '../claude-code/claude-selection';
export * from '../claude-code/claude-websocket-server';
export * from '../claude-code/claude-window-module';
export * from '../streamable-http/streamable-http-mcp-server';
export * from '../diff/diff-review-manager';
export * from '../diff/diff-review-target';
export * from '../tools/ide-context-tools';
export * from '../diff/ide-diff-tools';
export * from '../guards/loopback-server';
export * from '../mcp-endpoint';
export * from '../guards/mcp-request-guard';
export * from '../tools/mcp-tool-contribution';
export * from '../tools/mcp-tool-results';
export * from '../guards/refusal-log';
export * from '../window-server';
export * from '../window-server-module';
export * from '../window-context';
export * from '../guards/window-credentials';
export * from '../window-event-log';
export * from '../claude-code/websocket-server-transport';
