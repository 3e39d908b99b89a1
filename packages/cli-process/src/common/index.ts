// Saying what went wrong, the same way everywhere: errors and zod validation issues.
export * from './describe-error';
export * from './format-zod-issues';
// The catalogue of the CLIs: names, npm packages, commands, ACP modes.
export * from './cli-catalogue';
// Whether a path lies inside a folder, compared as written: one check for every feature.
export * from './path-within';
// A process's output as lines, never holding more than a bound of one line.
export * from './bounded-line-splitter';
