// Test helpers for the core's backend (the window's graph itself is in lib/node/window).
export * from './mcp-test-client';
export * from './raw-http';
export * from './recording-logger';
export * from './recording-window';
