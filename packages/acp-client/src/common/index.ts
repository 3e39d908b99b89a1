// ACP client contracts, browser-safe: agent definitions, tool-call tracking, output limits, logging.
export * from './acp-agent-definition';
export * from './acp-logger';
export * from './output-buffer';
export * from './own-field';
export * from './question-form';
export * from './subagent-parent';
export * from './tool-call-tracker';
export * from './tool-output-bounds';
// Agents from the ACP Registry: its index format, platforms, and what an install records.
export * from './registry/acp-registry-schema';
export * from './registry/choose-acp-distribution';
export * from './registry/installed-acp-agent';
export * from './registry/npm-package-spec';
export * from './registry/parse-acp-registry';
export * from './registry/pypi-package-spec';
export * from './registry/registry-platform';
export * from './registry/registry-url';
