export * from './blob-store';
export * from './restore-snapshot-file';
export * from './workspace-snapshot';
export * from './git-snapshot-engine';
export * from './private-git-repository';
export * from './workspace-snapshotter';
