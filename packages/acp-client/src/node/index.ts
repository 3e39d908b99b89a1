// An ACP agent process and its sessions over @agentclientprotocol/sdk.
export * from './acp-agent';
export * from './acp-agent-connection';
export * from './acp-client-app';
export * from './acp-sdk';
// Reading the ACP Registry and installing its agents for this user.
export * from './registry/acp-registry-client';
export * from './registry/acp-registry-installer';
export * from './registry/fetch-agent-icon';
