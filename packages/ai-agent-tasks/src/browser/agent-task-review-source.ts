import { inject, injectable } from '@theia/core/shared/inversify';
import { ConfirmDialog } from '@theia/core/lib/browser/dialogs';
import { Event } from '@theia/core/lib/common/event';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { PendingReviewSource, PendingReviewSourceFile, PendingReviewSourceGroup } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { AgentTaskBackend, AgentTaskSummary, FileChange } from '../common/agent-task-protocol';
import { AgentTaskReview } from './agent-task-review';
import { AgentTaskService, isTaskActive } from './agent-task-service';

/** Whether the user still has to decide on a change: it can be reverted and was neither reverted nor kept. */
export const isUndecided = (change: FileChange) => change.reviewable && change.revertedAt === undefined && change.keptAt === undefined;

/**
 * Lists the changes of finished agent tasks in Pending Changes, one group per task, until the user
 * keeps or reverts each (decisions the backend records with the task, so they survive a reload).
 */
@injectable()
export class AgentTaskReviewSource implements PendingReviewSource {
    @inject(AgentTaskService) protected readonly tasks: AgentTaskService;
    @inject(AgentTaskReview) protected readonly review: AgentTaskReview;
    @inject(AgentTaskBackend) protected readonly backend: AgentTaskBackend;

    get onDidChange(): Event<void> {
        return this.tasks.onDidChange;
    }

    groups(): PendingReviewSourceGroup[] {
        return this.tasks.all.map(({ summary }) => summary).filter(summary => !isTaskActive(summary)).map(summary => this.groupOf(summary));
    }

    protected groupOf(task: AgentTaskSummary): PendingReviewSourceGroup {
        const changes = task.changes.state === 'ready' ? task.changes.files.filter(isUndecided) : [];
        const files = changes.map(change => this.fileOf(task, change));
        const label = nls.localize('theia-cli-companion/agent-tasks/reviewGroup', 'Task: {0}', task.request.prompt.split('\n')[0].slice(0, 80));
        return {
            id: `task:${task.id}`, label, icon: 'checklist', files,
            keepAll: async () => {
                for (const change of changes) {
                    await this.backend.keep(task.id, change.path);
                }
            },
            revertAll: async () => {
                const confirmed = await new ConfirmDialog({
                    title: nls.localize('theia-cli-companion/agent-tasks/revertAllTitle', 'Revert All of {0}?', label),
                    msg: nls.localize('theia-cli-companion/agent-tasks/revertAllMessage',
                        'The {0} files below are put back as they were before the task: {1}.', String(changes.length), changes.map(change => change.relativePath).join(', ')),
                    ok: nls.localize('theia-cli-companion/agent-tasks/revertAll', 'Revert All')
                }).open();
                for (const change of confirmed ? changes : []) {
                    await this.review.revert(task, change);
                }
            }
        };
    }

    protected fileOf(task: AgentTaskSummary, change: FileChange): PendingReviewSourceFile {
        return {
            id: this.review.reviewDiffId(task, change),
            uri: URI.fromFilePath(change.path),
            kind: change.kind,
            openDiff: change.binary ? undefined : () => this.review.openDiff(task, change),
            keep: async () => { await this.backend.keep(task.id, change.path); },
            revert: async () => { await this.review.revert(task, change); }
        };
    }
}
