// An ACP agent process and its sessions over @agentclientprotocol/sdk.
export * from './acp-agent';
export * from './acp-agent-connection';
