import * as React from '@theia/core/shared/react';
import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { codicon } from '@theia/core/lib/browser/widgets/widget';
import { ReactWidget } from '@theia/core/lib/browser/widgets/react-widget';
import { CommandService } from '@theia/core/lib/common/command';
import { nls } from '@theia/core/lib/common/nls';
import { AgentTaskState, AgentTaskSummary, FileChange } from '../common/agent-task-protocol';
import { AgentTaskCommands } from './agent-task-commands';
import { AgentTaskLauncher } from './agent-task-launcher';
import { AgentTaskReview } from './agent-task-review';
import { AgentTaskService, AgentTaskView, isTaskActive } from './agent-task-service';
import { TranscriptView } from './agent-task-transcript-view';
import '../../src/browser/style/agent-tasks.css';

const STATE_ICONS: Record<AgentTaskState, string> = {
    preparing: 'loading codicon-modifier-spin',
    running: 'loading codicon-modifier-spin',
    succeeded: 'pass',
    failed: 'error',
    cancelled: 'circle-slash',
    'no-auth': 'key',
    'untrusted-folder': 'shield',
    'not-installed': 'cloud-download',
    crashed: 'error'
};

const CHANGE_BADGES: Record<FileChange['kind'], string> = { added: 'A', modified: 'M', deleted: 'D' };

/** "Agent Tasks": every task of this workspace, live while it runs, with what it changed. */
@injectable()
export class AgentTasksWidget extends ReactWidget {
    static readonly ID = 'ai-cli-companion-agent-tasks';
    static readonly LABEL = nls.localize('theia-cli-companion/agent-tasks/viewTitle', 'Agent Tasks');

    @inject(AgentTaskService) protected readonly tasks: AgentTaskService;
    @inject(AgentTaskLauncher) protected readonly launcher: AgentTaskLauncher;
    @inject(AgentTaskReview) protected readonly review: AgentTaskReview;
    @inject(CommandService) protected readonly commands: CommandService;

    /** Tasks shown open: the ones that started or changed while this window watched. */
    protected readonly expanded = new Set<string>();

    @postConstruct()
    protected init(): void {
        this.id = AgentTasksWidget.ID;
        this.title.label = AgentTasksWidget.LABEL;
        this.title.caption = AgentTasksWidget.LABEL;
        this.title.iconClass = codicon('checklist');
        this.title.closable = true;
        this.addClass('agent-tasks');
        // The view may be created after a task already started (running one opens it): those are open too.
        this.tasks.all.filter(task => this.tasks.changedWhileWatched(task.summary.id)).forEach(task => this.expanded.add(task.summary.id));
        this.toDispose.push(this.tasks.onDidChange(() => this.update()));
        this.toDispose.push(this.tasks.onDidTransition(({ task, from }) => {
            if (!from || from.state !== task.summary.state) {
                this.expanded.add(task.summary.id);
                void this.tasks.ensureLoaded(task.summary.id);
            }
        }));
        this.update();
    }

    protected render(): React.ReactNode {
        const all = this.tasks.all;
        return <div className='agent-tasks-body'>
            <div className='agent-tasks-toolbar'>
                <button className='theia-button' data-command={AgentTaskCommands.RUN_GEMINI_TASK.id}
                    onClick={() => this.commands.executeCommand(AgentTaskCommands.RUN_GEMINI_TASK.id)}>{AgentTaskCommands.RUN_GEMINI_TASK.label}</button>
            </div>
            {all.length === 0 && <p className='agent-tasks-empty'>{nls.localize('theia-cli-companion/agent-tasks/empty',
                'No agent tasks in this workspace yet. "Run Gemini Task…" runs Gemini CLI headless on a job of yours; you keep coding and review what it changed here.')}</p>}
            {all.map(task => this.renderTask(task))}
        </div>;
    }

    protected renderTask(task: AgentTaskView): React.ReactNode {
        const { summary } = task;
        const open = this.expanded.has(summary.id);
        const firstLine = summary.request.prompt.split('\n')[0];
        return <div key={summary.id} className={`agent-task agent-task-${summary.state}`} data-task-id={summary.id} data-state={summary.state}>
            <div className='agent-task-header' onClick={() => this.toggle(summary.id)} title={summary.request.prompt}>
                <span className={codicon(open ? 'chevron-down' : 'chevron-right')} />
                <span className={`agent-task-state-icon ${codicon(STATE_ICONS[summary.state])}`} />
                <span className='agent-task-prompt'>{firstLine}</span>
            </div>
            <div className='agent-task-meta'>{this.describeMeta(summary)}</div>
            <div className='agent-task-actions'>{this.renderActions(summary)}</div>
            {summary.retry && isTaskActive(summary) && <div className='agent-task-retry'>
                <span className={codicon('warning')} /> {nls.localize('theia-cli-companion/agent-tasks/retrying',
                    'Gemini CLI cannot reach the model (attempt {0} failed: {1}). It keeps retrying for several minutes.', String(summary.retry.attempt), summary.retry.reason)}
            </div>}
            {summary.outcomeMessage && <div className='agent-task-outcome'>{summary.outcomeMessage}</div>}
            {open && <TranscriptView transcript={task.transcript} cwd={summary.request.cwd} />}
            {this.renderChanges(summary)}
        </div>;
    }

    protected describeMeta(summary: AgentTaskSummary): string {
        const folder = summary.request.cwd.split('/').pop() || summary.request.cwd;
        const seconds = ((summary.endedAt ?? Date.now()) - summary.startedAt) / 1000;
        const when = new Date(summary.startedAt).toLocaleTimeString();
        return summary.endedAt
            ? nls.localize('theia-cli-companion/agent-tasks/metaEnded', '{0} · {1} · {2}, {3} s', folder, summary.request.approvalMode, when, seconds.toFixed(1))
            : nls.localize('theia-cli-companion/agent-tasks/metaRunning', '{0} · {1} · since {2}', folder, summary.request.approvalMode, when);
    }

    protected renderActions(summary: AgentTaskSummary): React.ReactNode {
        const button = (action: string, label: string, run: () => unknown, primary = false) =>
            <button key={action} className={`theia-button${primary ? '' : ' secondary'}`} data-action={action} onClick={() => run()}>{label}</button>;
        if (isTaskActive(summary)) {
            return button('cancel', nls.localize('theia-cli-companion/agent-tasks/cancel', 'Cancel'), () => this.tasks.cancel(summary.id), true);
        }
        return [
            summary.state === 'untrusted-folder' && button('run-trusted', nls.localize('theia-cli-companion/agent-tasks/runTrusted', 'Run Again Trusting This Folder'),
                () => this.launcher.start({ ...summary.request, skipTrust: true }), true),
            button('run-again', nls.localize('theia-cli-companion/agent-tasks/runAgain', 'Run Again'), () => this.launcher.start(summary.request)),
            button('remove', nls.localize('theia-cli-companion/agent-tasks/remove', 'Remove'), () => this.tasks.remove(summary.id))
        ];
    }

    protected renderChanges(summary: AgentTaskSummary): React.ReactNode {
        const changes = summary.changes;
        if (changes.state === 'pending') {
            return undefined;
        }
        if (changes.state === 'unavailable') {
            return <div className='agent-task-changes-unavailable'>{nls.localize('theia-cli-companion/agent-tasks/changesUnavailable',
                'Changed files cannot be listed: {0}.', changes.reason)}</div>;
        }
        return <div className='agent-task-changes'>
            <div className='agent-task-changes-title'>{changes.files.length
                ? nls.localize('theia-cli-companion/agent-tasks/changedFiles', 'Changed files ({0})', String(changes.files.length))
                : nls.localize('theia-cli-companion/agent-tasks/noChangedFiles', 'No files changed.')}</div>
            {changes.truncated && <div className='agent-task-changes-truncated'>{nls.localize('theia-cli-companion/agent-tasks/truncated',
                'The folder has more files than a snapshot records (20,000): changes beyond them are not listed.')}</div>}
            {changes.files.map(change => <div key={change.path} className={`agent-task-change agent-task-change-${change.kind}`}
                data-path={change.relativePath} data-kind={change.kind}
                data-reverted={change.revertedAt ? 'true' : 'false'} data-kept={change.keptAt ? 'true' : 'false'}>
                <span className='agent-task-change-badge'>{CHANGE_BADGES[change.kind]}</span>
                <span className='agent-task-change-path' title={change.path}
                    onClick={() => change.reviewable && !change.binary && !change.revertedAt && this.review.openDiff(summary, change)}>
                    {change.relativePath}</span>
                {change.keptAt !== undefined && change.revertedAt === undefined
                    && <span className='agent-task-change-note'>{nls.localize('theia-cli-companion/agent-tasks/kept', 'kept')}</span>}
                {change.revertedAt
                    ? <span className='agent-task-change-reverted'>{nls.localize('theia-cli-companion/agent-tasks/reverted', 'reverted')}</span>
                    : change.reviewable
                        ? <>
                            {!change.binary && this.iconAction('open-diff', 'diff', nls.localize('theia-cli-companion/agent-tasks/openDiff', 'Open Diff'),
                                () => this.review.openDiff(summary, change))}
                            {this.iconAction('revert', 'discard', nls.localize('theia-cli-companion/agent-tasks/revert', 'Revert'), () => this.review.revert(summary, change))}
                        </>
                        : <span className='agent-task-change-note'>{nls.localize('theia-cli-companion/agent-tasks/tooLarge', 'too large to review')}</span>}
            </div>)}
        </div>;
    }

    protected iconAction(action: string, icon: string, title: string, run: () => unknown): React.ReactNode {
        return <span className={`agent-task-icon-action ${codicon(icon)}`} role='button' tabIndex={0} data-action={action} title={title} aria-label={title}
            onClick={() => run()} onKeyDown={event => (event.key === 'Enter' || event.key === ' ') && run()} />;
    }

    protected toggle(id: string): void {
        if (!this.expanded.delete(id)) {
            this.expanded.add(id);
            void this.tasks.ensureLoaded(id);
        }
        this.update();
    }
}
