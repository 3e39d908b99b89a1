export * from './agent-task-manager';
