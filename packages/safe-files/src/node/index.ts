export * from './file-within-roots';
export * from './private-file';
export * from './private-tmp-directory';
export * from './read-file-bounded';
export * from './shared-directory-is-safe';
export * from './workspace-boundary';
