import { inject, injectable } from '@theia/core/shared/inversify';
import { ConfirmDialog } from '@theia/core/lib/browser/dialogs';
import { OpenerService, open } from '@theia/core/lib/browser/opener-service';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { MessageService } from '@theia/core/lib/common/message-service';
import { Disposable } from '@theia/core/lib/common/disposable';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { Widget } from '@theia/core/lib/browser/widgets/widget';
import { ReviewDiffRegistry } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { AgentTaskBackend, AgentTaskSummary, FileChange } from '../common/agent-task-protocol';
import { baselineUri } from './agent-task-baseline-resource-resolver';

/** Shows what a task changed in a file (Monaco diff against the content before the task) and puts it back on request. */
@injectable()
export class AgentTaskReview {
    @inject(AgentTaskBackend) protected readonly backend: AgentTaskBackend;
    @inject(OpenerService) protected readonly openers: OpenerService;
    @inject(EditorManager) protected readonly editors: EditorManager;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;

    @inject(ReviewDiffRegistry) protected readonly reviewDiffs: ReviewDiffRegistry;

    /** The open diff editor of each task's file, by `<task id>\0<path>`. */
    protected readonly widgets = new Map<string, Widget>();
    /** The task's reviewable changes in the window's review diffs (registered once a diff of the task opens). */
    protected readonly registered = new Map<string, Disposable>();

    /** The id of the change's diff in the window's `ReviewDiffRegistry`. */
    reviewDiffId(task: AgentTaskSummary, change: FileChange): string {
        return `task:${task.id}\0${change.path}`;
    }

    async openDiff(task: AgentTaskSummary, change: FileChange): Promise<Widget | undefined> {
        const file = URI.fromFilePath(change.path);
        const before = baselineUri(task.id, file);
        if (change.kind === 'deleted') {
            await open(this.openers, before);
            return undefined;
        }
        const label = nls.localize('theia-cli-companion/agent-tasks/diffLabel', '{0} (before the task ↔ now)', file.path.base);
        const widget = await open(this.openers, DiffUris.encode(before, file, label)) as Widget | undefined;
        if (widget) {
            const key = `${task.id}\0${change.path}`;
            this.widgets.set(key, widget);
            widget.disposed.connect(() => this.widgets.get(key) === widget && this.widgets.delete(key));
            this.registerChanges(task);
        }
        return widget;
    }

    /**
     * Makes the task's diffs review diffs: Accept Change keeps a change, Reject Change puts the lines
     * from before the task back into the file (an ordinary edit, saved as the user saves), and Next
     * Change goes on through the task's other files.
     */
    protected registerChanges(task: AgentTaskSummary): void {
        for (const change of task.changes.state === 'ready' ? task.changes.files : []) {
            const key = `${task.id}\0${change.path}`;
            if (change.kind === 'deleted' || !change.reviewable || change.binary || this.registered.has(key)) {
                continue;
            }
            this.registered.set(key, this.reviewDiffs.add({
                id: this.reviewDiffId(task, change), groupId: `task:${task.id}`,
                widget: () => this.widgets.get(key),
                open: async () => this.widgets.has(key) ? (await this.shell.activateWidget(this.widgets.get(key)!.id), this.widgets.get(key)) : this.openDiff(task, change)
            }));
        }
    }

    async revert(task: AgentTaskSummary, change: FileChange): Promise<boolean> {
        const file = URI.fromFilePath(change.path);
        const dirty = this.editors.all.find(editor => editor.editor.uri.isEqual(file) && editor.editor.document.dirty);
        if (dirty) {
            this.messages.warn(nls.localize('theia-cli-companion/agent-tasks/revertDirty',
                '{0} has unsaved changes in an editor: save or discard them first, then revert.', file.path.base));
            return false;
        }
        let result = await this.backend.revert(task.id, change.path, false);
        if (result.kind === 'changed-since') {
            const confirmed = await new ConfirmDialog({
                title: nls.localize('theia-cli-companion/agent-tasks/revertChangedTitle', 'Revert {0}?', file.path.base),
                msg: nls.localize('theia-cli-companion/agent-tasks/revertChangedMessage',
                    '{0} changed after the task ended. Reverting puts back its content from before the task, and the later changes are lost.', change.relativePath),
                ok: nls.localize('theia-cli-companion/agent-tasks/revertAnyway', 'Revert Anyway')
            }).open();
            if (!confirmed) {
                return false;
            }
            result = await this.backend.revert(task.id, change.path, true);
        }
        if (result.kind === 'not-reviewable') {
            this.messages.warn(nls.localize('theia-cli-companion/agent-tasks/revertImpossible', 'Cannot revert {0}: {1}.', change.relativePath, result.reason));
            return false;
        }
        return result.kind === 'reverted';
    }
}
