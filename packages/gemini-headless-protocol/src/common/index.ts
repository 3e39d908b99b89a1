// Gemini CLI's headless stream-json, browser-safe: events, the line parser, the derived transcript, exits, arguments.
export * from './headless-exit';
export * from './headless-task-args';
export * from './stream-json-events';
export * from './stream-json-line-parser';
export * from './task-transcript';
