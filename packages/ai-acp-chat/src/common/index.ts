// The ACP chat's RPC contract and preferences.
export * from './acp-chat-preferences';
export * from './acp-chat-protocol';
export * from './checkpoint-retention';
export * from './slice-lines';
