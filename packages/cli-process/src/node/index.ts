// Finding a CLI on PATH, and running it as a process group of its own.
export * from './absolute-path-entries';
export * from './find-absolute-executable';
export * from './find-executable';
export * from './process-group';
