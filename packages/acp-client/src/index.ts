export * from './common/acp-agent-definition';
export * from './common/acp-logger';
export * from './common/output-buffer';
export * from './common/tool-call-tracker';
