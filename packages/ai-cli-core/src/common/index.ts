// The companion's RPC contract and preferences; the window protocol, editor-state model and how client-chosen
// text is shown come from the Theia-free server package.
export * from '@theia-cli-companion/ide-companion-server/lib/common';
export * from './ide-companion-preferences';
export * from './ide-companion-protocol';
export * from './keep-awake-protocol';
export * from './snapshot-file-change';
export * from './snapshot-include';
export * from './storage-usage-protocol';
