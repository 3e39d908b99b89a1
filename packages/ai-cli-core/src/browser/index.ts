// What other extensions use from the core's frontend: the window's companion, its diff review, its log, and the
// guards for anything that runs code in a workspace (user-only execution settings, workspace trust).
export * from './companion-log';
export * from './companion-output';
export * from './diff-review/diff-review-service';
export * from './diff-review/reviewed-proposal';
export * from './diff-review/applied-changes';
export * from './diff-review/review-pace-settings';
export * from './editor-context-tracker';
export * from './keep-awake/keep-awake-client-impl';
export * from './window-server-service';
export * from './snapshots/snapshot-include-settings';
export * from './untrusted-workspace/execution-settings';
export * from './untrusted-workspace/workspace-trust-gate';
export * from './review-changes/review-diff-registry';
export * from './review-changes/review-change-service';
export * from './review-changes/review-change-commands';
export * from './pending-review/pending-review-commands';
export * from './pending-review/pending-review-source';
export * from './status-view/status-view-section';
export * from './timing/frontend-timing-mark';
