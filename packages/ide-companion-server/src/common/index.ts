// What a window's companion server and its host's editor side exchange, the editor-state model, how
// updates are paced, how a reviewed proposal's text is reported byte for byte, which change a decision applies to,
// how proposals are paced for review, the diagnostic report, and how client-chosen text is shown.
export * from './cli-command-line';
export * from './client-text';
export * from './context-update-scheduler';
export * from './diagnostic-report';
export * from './open-editors-model';
export * from './review-change';
export * from './review-pace';
export * from './reviewed-text';
export * from './rpc-text';
export * from './window-protocol';
