export * from './blob-store';
export * from './disk-usage';
export * from './restore-snapshot-file';
export * from './store-guard';
export * from './workspace-snapshot';
export * from './git-snapshot-engine';
export * from './private-git-repository';
export * from './workspace-snapshotter';
