// ACP client contracts, browser-safe: agent definitions, tool-call tracking, output limits, logging.
export * from './acp-agent-definition';
export * from './acp-logger';
export * from './output-buffer';
export * from './tool-call-tracker';
export * from './tool-output-bounds';
