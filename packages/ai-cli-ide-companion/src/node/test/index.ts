// Test helpers for the companion's backend, and the window companion itself for tests that build one.
export * from './mcp-test-client';
export { WindowCompanion } from '../window-companion';
export { createWindowCompanion } from '../window-companion-module';
