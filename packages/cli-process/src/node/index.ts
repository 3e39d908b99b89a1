// Finding a CLI on PATH, running it as a process group of its own, and telling whether a process is alive and who it is.
export * from './absolute-path-entries';
export * from './find-absolute-executable';
export * from './find-executable';
export * from './process-group';
export * from './process-identity';
export * from './process-liveness';
export * from './spawn-helper';
export * from './timing-marks';
