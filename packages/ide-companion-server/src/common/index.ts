// What a window's companion server and its host's editor side exchange, and how client-chosen text is shown.
export * from './client-text';
export * from './open-editors-model';
export * from './rpc-text';
export * from './window-protocol';
