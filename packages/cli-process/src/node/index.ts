// Finding a CLI on PATH, and running it as a process group of its own.
export * from './find-executable';
export * from './process-group';
