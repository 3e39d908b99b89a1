import * as React from '@theia/core/shared/react';
import { inject, injectable, named, postConstruct } from '@theia/core/shared/inversify';
import { codicon } from '@theia/core/lib/browser/widgets/widget';
import { ReactWidget } from '@theia/core/lib/browser/widgets/react-widget';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import { ContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { DiffReviewService } from '../diff-review/diff-review-service';
import { AppliedChange, AppliedChanges } from '../diff-review/applied-changes';
import { ReviewedProposal } from '../diff-review/reviewed-proposal';
import { ReviewChangeService } from '../review-changes/review-change-service';
import { ReviewDiffRegistry } from '../review-changes/review-diff-registry';
import { PendingReviewSource, PendingReviewSourceFile, PendingReviewSourceGroup } from './pending-review-source';
import '../../../src/browser/style/pending-review.css';

interface ProposalGroup {
    readonly id: string;
    readonly label: string;
    readonly proposals: ReviewedProposal[];
    readonly applied: AppliedChange[];
}

const KIND_ICONS: ReadonlyMap<PendingReviewSourceFile['kind'], string> = new Map([['added', 'new-file'], ['modified', 'diff'], ['deleted', 'trash']]);

/** "Pending Changes": every proposal waiting in this window, by the session, chat or task that made it. */
@injectable()
export class PendingReviewWidget extends ReactWidget {
    static readonly ID = 'ai-cli-companion-pending-changes';
    static readonly LABEL = nls.localize('theia-cli-companion/cli-core/pendingViewTitle', 'Pending Changes');

    @inject(DiffReviewService) protected readonly diffs: DiffReviewService;
    @inject(AppliedChanges) protected readonly appliedChanges: AppliedChanges;
    @inject(ReviewDiffRegistry) protected readonly registry: ReviewDiffRegistry;
    @inject(ReviewChangeService) protected readonly changes: ReviewChangeService;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(ContributionProvider) @named(PendingReviewSource) protected readonly sources: ContributionProvider<PendingReviewSource>;

    @postConstruct()
    protected init(): void {
        this.id = PendingReviewWidget.ID;
        this.title.label = PendingReviewWidget.LABEL;
        this.title.caption = PendingReviewWidget.LABEL;
        this.title.iconClass = codicon('diff-multiple');
        this.title.closable = true;
        this.addClass('pending-review');
        this.toDispose.push(this.diffs.onDidChange(() => this.update()));
        this.toDispose.push(this.appliedChanges.onDidChange(() => this.update()));
        // Change decisions show as "n of m left": a review diff's editor reports them as its diff updates.
        this.toDispose.push(this.registry.onDidChange(() => this.update()));
        this.toDispose.push(this.changes.onDidDecide(() => this.update()));
        this.sources.getContributions().forEach(source => this.toDispose.push(source.onDidChange(() => this.update())));
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
        this.appliedChanges.applied.forEach(change => groupOf(change.proposal.origin).applied.push(change));
        return [...groups.values()];
    }

    protected render(): React.ReactNode {
        const groups = this.groups();
        const written = this.sources.getContributions().flatMap(source => source.groups()).filter(group => group.files.length > 0);
        return <div className='pending-review-body'>
            {groups.length === 0 && written.length === 0 && <p className='pending-review-empty'>{nls.localize('theia-cli-companion/cli-core/pendingEmpty',
                'No changes are waiting for review. Changes that Gemini CLI, Qwen Code, Claude Code, a chat agent or an agent task make in this window are listed here.')}</p>}
            {groups.map(group => this.renderGroup(group))}
            {written.map(group => this.renderSourceGroup(group))}
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

    /** Changes already written (an agent task's): kept or reverted rather than accepted or rejected. */
    protected renderSourceGroup(group: PendingReviewSourceGroup): React.ReactNode {
        return <div className='pending-review-group' key={group.id} data-group={group.id}>
            <div className='pending-review-group-header'>
                <span className={codicon(group.icon)} />
                <span className='pending-review-group-label' title={group.label}>{group.label}</span>
                <span className='pending-review-count'>{group.files.length}</span>
                {this.action('keep-group', 'check-all', nls.localize('theia-cli-companion/cli-core/keepGroup', 'Keep All of {0}', group.label), () => group.keepAll())}
                {this.action('revert-group', 'discard', nls.localize('theia-cli-companion/cli-core/revertGroup', 'Revert All of {0}', group.label), () => group.revertAll())}
            </div>
            {group.files.map(file => this.renderSourceFile(file))}
        </div>;
    }

    protected renderSourceFile(file: PendingReviewSourceFile): React.ReactNode {
        const openFile = () => file.openDiff ? file.openDiff() : open(this.openerService, file.uri);
        return <div className='pending-review-file pending-review-written' key={file.id} data-written={file.id} data-file={file.uri.path.base}>
            <span className={codicon(KIND_ICONS.get(file.kind) ?? 'diff')} />
            <span className='pending-review-file-name' title={file.uri.path.fsPath()} onClick={openFile}>{this.displayName(file.uri)}</span>
            {this.renderProgress(file.id, nls.localize('theia-cli-companion/cli-core/written', 'written'))}
            {file.openDiff && this.action('open', 'go-to-file', nls.localize('theia-cli-companion/cli-core/openReview', 'Open Diff'), file.openDiff)}
            {this.action('keep', 'check', nls.localize('theia-cli-companion/cli-core/keepFile', 'Keep'), () => file.keep())}
            {this.action('revert', 'discard', nls.localize('theia-cli-companion/cli-core/revertFile', 'Revert'), () => file.revert())}
        </div>;
    }

    /** "n of m changes to decide" once the file's review diff has reported its changes, else `fallback`. */
    protected renderProgress(reviewDiffId: string, fallback?: string): React.ReactNode {
        const diff = this.registry.all().find(candidate => candidate.id === reviewDiffId);
        const progress = diff && this.changes.progress(diff);
        const text = progress && progress.total > 0
            ? nls.localize('theia-cli-companion/cli-core/changesLeft', '{0} of {1} changes to decide', String(progress.undecided), String(progress.total))
            : fallback;
        return text && <span className='pending-review-file-progress' title={text}>{text}</span>;
    }

    protected renderProposal(proposal: ReviewedProposal): React.ReactNode {
        const uri = new URI(proposal.fileUri);
        const name = this.displayName(uri);
        return <div className='pending-review-file' key={proposal.id} data-proposal={proposal.id} data-file={uri.path.base}>
            <span className={codicon(proposal.fileExists ? 'diff' : 'new-file')} />
            <span className='pending-review-file-name' title={uri.path.fsPath()} onClick={() => this.diffs.open(proposal.id)}>{name}</span>
            {this.renderProgress(proposal.id)}
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
            {this.action('undo', 'discard', nls.localize('theia-cli-companion/cli-core/undoApplied', 'Undo'), () => this.appliedChanges.undo(proposal.id))}
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
