// Test helpers for the window companion server and its hosts (the window's graph itself is in lib/node/window).
export * from './mcp-test-client';
export * from './raw-http';
export * from './recording-logger';
export * from './recording-window';
export * from './claude-wire';
