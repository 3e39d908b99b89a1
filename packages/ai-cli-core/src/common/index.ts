// The companion's RPC contract, preferences and editor-state model, and how client-chosen text is shown.
export * from './client-text';
export * from './ide-companion-preferences';
export * from './ide-companion-protocol';
export * from './open-editors-model';
export * from './rpc-text';
export * from './snapshot-file-change';
export * from './snapshot-include';
