export * from './agent-task-manager';
export * from './blob-store';
export * from './workspace-snapshot';
