// The ACP chat's backend as the benchmarks and tests drive it: the chat turns' checkpoints.
export * from './acp-turn-checkpoints';
