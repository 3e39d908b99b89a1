export * from './blob-store';
export * from './restore-snapshot-file';
export * from './workspace-snapshot';
