// The ACP chat's RPC contract and preferences.
export * from './acp-chat-preferences';
export * from './acp-chat-protocol';
export * from './slice-lines';
