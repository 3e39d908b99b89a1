import { inject, injectable } from '@theia/core/shared/inversify';
import { ChangeSetImpl, CommandChatResponseContentImpl, MutableChatRequestModel } from '@theia/ai-chat';
import { Command } from '@theia/core/lib/common/command';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import { Saveable } from '@theia/core/lib/browser/saveable';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { AcpChatBackend, AcpRestoreResult, AcpTurnCheckpoint, AcpTurnFileChange } from '../../common/acp-chat-protocol';
import { AcpTurnChangeElement, TurnChangeActions, TurnRef, UNREADABLE_NOTE } from './acp-turn-change-element';
import { checkpointUri } from './checkpoint-resource-resolver';
import { AgentMarkdownContent } from '../agent-markdown/agent-markdown-content';

/** The companion's commands share one category, localized once (by ai-cli-core). */
const CATEGORY_KEY = 'theia-cli-companion/ide-companion/category';
export const RESTORE_TURN_COMMAND = Command.toLocalizedCommand({
    id: 'aiCliCompanion.acp.restoreTurn', category: 'CLI Companion', label: 'Restore to Before This Turn'
}, 'theia-cli-companion/acp-chat/restoreTurn', CATEGORY_KEY);

/** How many of a turn's files its answer names (the change set lists them all). */
const MAX_NAMED_FILES = 20;

/**
 * The files each agent turn changed, in the chat: Theia AI change set elements (diff, revert, apply)
 * and a *Restore to Before This Turn* button under the turn's answer. Restores never write over a file
 * that changed after the turn (on disk or in an editor) without the user saying so.
 */
@injectable()
export class AcpTurnChanges implements TurnChangeActions {

    @inject(AcpChatBackend) protected readonly backend: AcpChatBackend;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(OpenerService) protected readonly openers: OpenerService;
    @inject(EditorManager) protected readonly editors: EditorManager;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;

    /** The elements the window's chats show, by chat. */
    protected readonly live = new Map<string, Set<AcpTurnChangeElement>>();

    /** Shows what the turn changed under its answer and in the chat's change set. */
    record(request: MutableChatRequestModel, checkpoint: AcpTurnCheckpoint, agentName: string): void {
        const at = { chatSessionId: request.session.id, turnId: checkpoint.turnId };
        // A turn that could not be recorded (all of it, or a folder) says so: never "nothing changed".
        const failure = checkpoint.error ? ` ${nls.localize('theia-cli-companion/acp-chat/checkpointError',
            'Not everything this turn changed could be recorded: {0}.', `\`${checkpoint.error.replace(/`/g, '\'')}\``)}` : '';
        if (!checkpoint.changes.length) {
            request.response.response.addContent(new AgentMarkdownContent(`\n\n*${failure.trim()}*\n\n`, []));
            return;
        }
        const changeSet = new ChangeSetImpl(this.elementsOf(at, checkpoint, agentName));
        changeSet.setTitle(nls.localize('theia-cli-companion/acp-chat/changeSetTitle', 'Changed by {0}', agentName));
        request.changeSet = changeSet;
        // A name is shown as code (a backtick in it cannot end that early); a turn that touched many files names the first few.
        const named = checkpoint.changes.slice(0, MAX_NAMED_FILES)
            .map(change => `\`${change.relativePath.replace(/`/g, '\'')}\`${change.unreadable ? ` (${UNREADABLE_NOTE()})` : ''}`).join(', ');
        const files = checkpoint.changes.length > MAX_NAMED_FILES
            ? nls.localize('theia-cli-companion/acp-chat/andMore', '{0} and {1} more', named, checkpoint.changes.length - MAX_NAMED_FILES)
            : named;
        const cut = checkpoint.truncated ? ` ${nls.localize('theia-cli-companion/acp-chat/checkpointCut',
            '(A folder has more files than a checkpoint records: changes to the others are not listed.)')}` : '';
        // File names are the agent's to choose (a line break in one could end the code span): no link of theirs is one.
        request.response.response.addContent(new AgentMarkdownContent(`\n\n*${nls.localize('theia-cli-companion/acp-chat/turnChanged',
            'Changed in this turn: {0}.', files)}${cut}${failure}*\n\n`, []));
        request.response.response.addContent(new CommandChatResponseContentImpl(RESTORE_TURN_COMMAND, undefined, [at.chatSessionId, at.turnId]));
    }

    elementsOf(at: TurnRef, checkpoint: AcpTurnCheckpoint, agentName: string): AcpTurnChangeElement[] {
        return checkpoint.changes.map(change => this.element(at, change, agentName));
    }

    /**
     * A change set element, kept track of while the chat shows it (a new turn's, or a reopened chat's):
     * a restore updates every element of the chat it affects.
     */
    element(at: TurnRef, change: AcpTurnFileChange, agentName: string): AcpTurnChangeElement {
        const element = new AcpTurnChangeElement(at, change, agentName, this);
        let live = this.live.get(at.chatSessionId);
        if (!live) {
            live = new Set();
            this.live.set(at.chatSessionId, live);
        }
        live.add(element);
        element.onDispose(() => {
            live.delete(element);
            if (!live.size && this.live.get(at.chatSessionId) === live) {
                this.live.delete(at.chatSessionId);
            }
        });
        return element;
    }

    /** The turn's own change of the file: before and after it, read-only. */
    async openChange(at: TurnRef, change: AcpTurnFileChange, agentName: string): Promise<void> {
        if (change.unreadable) {
            this.messages.warn(nls.localize('theia-cli-companion/acp-chat/unreadableChange', '{0} could not be read ({1}): neither side was kept.',
                this.nameOf(change.path), change.unreadable));
            return;
        }
        const file = FileUri.create(change.path);
        const label = nls.localize('theia-cli-companion/acp-chat/turnDiffLabel', '{0} ({1}: before ↔ after the turn)', file.path.base, agentName);
        await open(this.openers, DiffUris.encode(checkpointUri(file, { ...at, side: 'before' }), checkpointUri(file, { ...at, side: 'after' }), label));
    }

    async restore(at: TurnRef, files?: string[]): Promise<void> {
        const dirty = this.editors.all.filter(widget => Saveable.get(widget)?.dirty && widget.editor.uri.scheme === 'file').map(widget => widget.editor.uri.path.fsPath());
        // The window's folders now: a restore writes nowhere else, whatever the stored checkpoint says.
        const roots = await this.currentRoots();
        let result = await this.backend.restoreTurn(at.chatSessionId, at.turnId, { files, overwrite: [], skip: [], dirty, roots });
        if (result.kind === 'changed-since') {
            const changed = result.files;
            const overwrite = nls.localize('theia-cli-companion/acp-chat/overwrite', 'Overwrite Them');
            const others = nls.localize('theia-cli-companion/acp-chat/restoreOthers', 'Restore Only the Others');
            const choice = await this.messages.warn(nls.localize('theia-cli-companion/acp-chat/changedSinceTurn',
                'Changed after the agent\'s turn (on disk or unsaved in an editor): {0}. Overwrite them with their content from before the turn, or restore only the other files?',
                changed.map(file => this.nameOf(file)).join(', ')), overwrite, others);
            if (choice !== overwrite && choice !== others) {
                return;
            }
            result = await this.backend.restoreTurn(at.chatSessionId, at.turnId, {
                files, overwrite: choice === overwrite ? [...changed] : [], skip: choice === others ? [...changed] : [], dirty, roots
            });
        }
        await this.report(result, at);
    }

    async reapply(at: TurnRef, file: string): Promise<void> {
        const roots = await this.currentRoots();
        let result = await this.backend.reapplyTurnFile(at.chatSessionId, at.turnId, file, false, roots);
        if (result.kind === 'changed-since') {
            const overwrite = nls.localize('theia-cli-companion/acp-chat/overwriteOne', 'Overwrite');
            const choice = await this.messages.warn(nls.localize('theia-cli-companion/acp-chat/changedSinceRestore',
                '{0} changed after it was restored. Overwrite it with the agent\'s version?', this.nameOf(file)), overwrite);
            if (choice !== overwrite) {
                return;
            }
            result = await this.backend.reapplyTurnFile(at.chatSessionId, at.turnId, file, true, roots);
        }
        await this.report(result, at);
    }

    /** The window's workspace folders now (file paths). */
    protected async currentRoots(): Promise<string[]> {
        return (await this.workspace.roots).filter(root => root.resource.scheme === 'file').map(root => root.resource.path.fsPath());
    }

    protected async report(result: AcpRestoreResult, at: TurnRef): Promise<void> {
        if (result.kind === 'unavailable') {
            this.messages.warn(nls.localize('theia-cli-companion/acp-chat/restoreUnavailable', 'Nothing was restored: {0}.', result.reason));
            return;
        }
        if (result.kind === 'changed-since') {
            this.messages.warn(nls.localize('theia-cli-companion/acp-chat/changedMeanwhile',
                'Nothing was restored: {0} changed again meanwhile. Try again.', result.files.map(file => this.nameOf(file)).join(', ')));
            return;
        }
        // An editor with unsaved edits the user chose to overwrite shows the file as written now.
        for (const widget of this.editors.all.filter(candidate => result.restored.includes(candidate.editor.uri.path.fsPath()))) {
            const saveable = Saveable.get(widget);
            if (saveable?.dirty) {
                await saveable.revert?.();
            }
        }
        if (result.failed.length) {
            this.messages.warn(nls.localize('theia-cli-companion/acp-chat/restoreFailed', 'Not restored: {0}.',
                result.failed.map(({ path, reason }) => `${this.nameOf(path)} (${reason})`).join('; ')));
        }
        if (result.restored.length) {
            this.messages.info(nls.localize('theia-cli-companion/acp-chat/restored', 'Restored {0} file(s): {1}.',
                result.restored.length, result.restored.map(file => this.nameOf(file)).join(', ')));
        } else if (!result.failed.length) {
            this.messages.info(nls.localize('theia-cli-companion/acp-chat/nothingToRestore', 'Nothing to restore: the files are already as they were before the turn.'));
        }
        await this.refresh(at.chatSessionId);
    }

    /** The change set's elements show what is restored now: a restore of one turn undoes later turns too. */
    async refresh(chatSessionId: string): Promise<void> {
        const byTurn = new Map<string, AcpTurnChangeElement[]>();
        for (const element of this.live.get(chatSessionId) ?? []) {
            byTurn.set(element.at.turnId, [...byTurn.get(element.at.turnId) ?? [], element]);
        }
        for (const [turnId, elements] of byTurn) {
            const checkpoint = await this.backend.turnCheckpoint(chatSessionId, turnId);
            for (const element of elements) {
                const now = checkpoint?.changes.find(change => change.path === element.change.path);
                if (now) {
                    element.update(now);
                }
            }
        }
    }

    /** The turns of the chat that changed files, in the order the chat showed them. */
    turnsOf(chatSessionId: string): TurnRef[] {
        const turns = new Map<string, TurnRef>();
        (this.live.get(chatSessionId) ?? new Set()).forEach(element => turns.set(element.at.turnId, element.at));
        return [...turns.values()];
    }

    protected nameOf(file: string): string {
        return FileUri.create(file).path.base;
    }
}
