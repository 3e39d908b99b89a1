// The agent tasks' RPC contract and preferences.
export * from './agent-task-preferences';
export * from './agent-task-protocol';
