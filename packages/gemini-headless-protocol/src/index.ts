export * from './common/stream-json-events';
export * from './common/stream-json-line-parser';
export * from './common/task-transcript';
export * from './common/headless-exit';
export * from './common/headless-task-args';
