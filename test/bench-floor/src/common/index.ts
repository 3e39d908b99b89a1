export * from './bench-floor-protocol';
export * from './bench-floor-chat-protocol';
