// The IDE-mode wire contracts, browser-safe: zod schemas and constants, no Node built-ins.
export * from './claude-code-ide';
export * from './cli-flavour-id';
export * from './companion-identity';
export * from './discovery-files';
export * from './ide-context';
export * from './ide-notifications';
export * from './ide-tools';
export * from './safe-json';
export * from './workspace-path';
