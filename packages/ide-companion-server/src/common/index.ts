// What a window's companion server and its host's editor side exchange, the editor-state model, how
// updates are paced, how a reviewed proposal's text is reported byte for byte, and how client-chosen text is shown.
export * from './cli-command-line';
export * from './client-text';
export * from './context-update-scheduler';
export * from './open-editors-model';
export * from './reviewed-text';
export * from './rpc-text';
export * from './window-protocol';
