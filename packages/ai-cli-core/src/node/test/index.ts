// Test helpers for the core's backend, and the window companion itself for tests that build one.
export * from './mcp-test-client';
export * from './raw-http';
export * from './recording-logger';
export * from './recording-window';
export { WindowCompanion } from '../window-companion';
export { createWindowCompanion } from '../window-companion-module';
