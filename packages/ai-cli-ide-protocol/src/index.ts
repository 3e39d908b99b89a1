// Browser-safe contracts only. Node-only helpers live under `lib/node/`.
export * from './common/ide-context';
export * from './common/ide-notifications';
export * from './common/ide-tools';
export * from './common/companion-identity';
export * from './common/workspace-path';
export * from './common/discovery-files';
export * from './common/cli-flavour-id';
