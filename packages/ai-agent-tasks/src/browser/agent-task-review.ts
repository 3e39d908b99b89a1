import { inject, injectable } from '@theia/core/shared/inversify';
import { ConfirmDialog } from '@theia/core/lib/browser/dialogs';
import { OpenerService, open } from '@theia/core/lib/browser/opener-service';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { MessageService } from '@theia/core/lib/common/message-service';
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

    async openDiff(task: AgentTaskSummary, change: FileChange): Promise<void> {
        const file = URI.fromFilePath(change.path);
        const before = baselineUri(task.id, file);
        if (change.kind === 'deleted') {
            await open(this.openers, before);
            return;
        }
        const label = nls.localize('theia-cli-companion/agent-tasks/diffLabel', '{0} (before the task ↔ now)', file.path.base);
        await open(this.openers, DiffUris.encode(before, file, label));
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
