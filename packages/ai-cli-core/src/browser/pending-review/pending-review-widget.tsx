import * as React from '@theia/core/shared/react';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { codicon } from '@theia/core/lib/browser/widgets/widget';
import { ReactWidget } from '@theia/core/lib/browser/widgets/react-widget';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import { AppliedChange, DiffReviewService, ReviewedProposal } from '../diff-review/diff-review-service';
import { ReviewChangeService } from '../review-changes/review-change-service';
import { ReviewDiffRegistry } from '../review-changes/review-diff-registry';
import '../../../src/browser/style/pending-review.css';

interface ProposalGroup {
    readonly id: string;
    readonly label: string;
    readonly proposals: ReviewedProposal[];
    readonly applied: AppliedChange[];
}

/** "Pending Changes": every proposal waiting in this window, by the session, chat or task that made it. */
@injectable()
export class PendingReviewWidget extends ReactWidget {
    static readonly ID = 'ai-cli-companion-pending-changes';
    static readonly LABEL = nls.localize('theia-cli-companion/cli-core/pendingViewTitle', 'Pending Changes');

    @inject(DiffReviewService) protected readonly diffs: DiffReviewService;
    @inject(ReviewDiffRegistry) protected readonly registry: ReviewDiffRegistry;
    @inject(ReviewChangeService) protected readonly changes: ReviewChangeService;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(OpenerService) protected readonly openerService: OpenerService;

    @postConstruct()
    protected init(): void {
        this.id = PendingReviewWidget.ID;
        this.title.label = PendingReviewWidget.LABEL;
        this.title.caption = PendingReviewWidget.LABEL;
        this.title.iconClass = codicon('diff-multiple');
        this.title.closable = true;
        this.addClass('pending-review');
        this.toDispose.push(this.diffs.onDidChange(() => this.update()));
        // Change decisions show as "n of m left": a review diff's editor reports them as its diff updates.
        this.toDispose.push(this.registry.onDidChange(() => this.update()));
        this.toDispose.push(this.changes.onDidDecide(() => this.update()));
        this.update();
    }

    protected groups(): ProposalGroup[] {
        const groups = new Map<string, ProposalGroup>();
        const groupOf = ({ groupId, label }: ReviewedProposal['origin']) => {
            let group = groups.get(groupId);
            if (!group) {
                group = { id: groupId, label, proposals: [], applied: [] };
                groups.set(groupId, group);
            }
            return group;
        };
        this.diffs.pending.forEach(proposal => groupOf(proposal.origin).proposals.push(proposal));
        this.diffs.applied.forEach(change => groupOf(change.proposal.origin).applied.push(change));
        return [...groups.values()];
    }

    protected render(): React.ReactNode {
        const groups = this.groups();
        return <div className='pending-review-body'>
            {groups.length === 0 && <p className='pending-review-empty'>{nls.localize('theia-cli-companion/cli-core/pendingEmpty',
                'No changes are waiting for review. Changes that Gemini CLI, Qwen Code, Claude Code or a chat agent propose in this window are listed here.')}</p>}
            {groups.map(group => this.renderGroup(group))}
        </div>;
    }

    protected renderGroup(group: ProposalGroup): React.ReactNode {
        return <div className='pending-review-group' key={group.id} data-group={group.id}>
            <div className='pending-review-group-header'>
                <span className={codicon('account')} />
                <span className='pending-review-group-label' title={group.label}>{group.label}</span>
                <span className='pending-review-count'>{group.proposals.length}</span>
                {group.proposals.length > 0 && this.action('accept-group', 'check-all', nls.localize('theia-cli-companion/cli-core/acceptGroup', 'Accept All of {0}', group.label),
                    () => this.diffs.acceptAll(group.id))}
                {group.proposals.length > 0 && this.action('reject-group', 'close-all', nls.localize('theia-cli-companion/cli-core/rejectGroup', 'Reject All of {0}', group.label),
                    () => this.diffs.rejectAll(group.id))}
            </div>
            {group.proposals.map(proposal => this.renderProposal(proposal))}
            {group.applied.map(change => this.renderApplied(change))}
        </div>;
    }

    protected renderProposal(proposal: ReviewedProposal): React.ReactNode {
        const uri = new URI(proposal.fileUri);
        const diff = this.registry.all().find(candidate => candidate.id === proposal.id);
        const progress = diff && this.changes.progress(diff);
        const name = this.displayName(uri);
        return <div className='pending-review-file' key={proposal.id} data-proposal={proposal.id} data-file={uri.path.base}>
            <span className={codicon(proposal.fileExists ? 'diff' : 'new-file')} />
            <span className='pending-review-file-name' title={uri.path.fsPath()} onClick={() => this.diffs.open(proposal.id)}>{name}</span>
            {progress && progress.total > 0 && <span className='pending-review-file-progress'>
                {nls.localize('theia-cli-companion/cli-core/changesLeft', '{0} of {1} changes to decide', String(progress.undecided), String(progress.total))}</span>}
            {this.action('open', 'go-to-file', nls.localize('theia-cli-companion/cli-core/openReview', 'Open Diff'), () => this.diffs.open(proposal.id))}
            {this.action('accept', 'check', nls.localize('theia-cli-companion/cli-core/acceptFile', 'Accept'), () => this.diffs.accept(proposal.id))}
            {this.action('reject', 'close', nls.localize('theia-cli-companion/cli-core/rejectFile', 'Reject'), () => this.diffs.reject(proposal.id))}
        </div>;
    }

    protected renderApplied({ proposal }: AppliedChange): React.ReactNode {
        const uri = new URI(proposal.fileUri);
        const name = this.displayName(uri);
        return <div className='pending-review-file pending-review-applied' key={proposal.id} data-applied={proposal.id} data-file={uri.path.base}>
            <span className={codicon('pass')} title={nls.localize('theia-cli-companion/cli-core/appliedTitle', 'Accepted automatically')} />
            <span className='pending-review-file-name' title={uri.path.fsPath()} onClick={() => open(this.openerService, uri)}>{name}</span>
            <span className='pending-review-file-progress'>{nls.localize('theia-cli-companion/cli-core/applied', 'applied')}</span>
            {this.action('undo', 'discard', nls.localize('theia-cli-companion/cli-core/undoApplied', 'Undo'), () => this.diffs.undo(proposal.id))}
        </div>;
    }

    /** The path relative to its workspace folder, or the whole path outside one. */
    protected displayName(uri: URI): string {
        return this.workspace.getWorkspaceRootUri(uri)?.relative(uri)?.toString() ?? uri.path.fsPath();
    }

    protected action(action: string, icon: string, title: string, run: () => unknown): React.ReactNode {
        return <span className={`pending-review-action ${codicon(icon)}`} role='button' tabIndex={0} data-action={action} title={title} aria-label={title}
            onClick={() => run()} onKeyDown={event => (event.key === 'Enter' || event.key === ' ') && run()} />;
    }
}
