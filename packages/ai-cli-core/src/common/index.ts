// The companion's RPC contract, preferences and editor-state model.
export * from './ide-companion-preferences';
export * from './ide-companion-protocol';
export * from './open-editors-model';
export * from './rpc-text';
