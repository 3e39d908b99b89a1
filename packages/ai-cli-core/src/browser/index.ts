// What other extensions use from the core's frontend: the window's companion, its diff review, its log.
export * from './companion-log';
export * from './companion-output';
export * from './diff-review/diff-review-service';
export * from './editor-context-tracker';
export * from './window-companion-service';
