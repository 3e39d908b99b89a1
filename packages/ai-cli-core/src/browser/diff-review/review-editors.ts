import { inject, injectable } from '@theia/core/shared/inversify';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import { close as closeWithoutPrompt, SaveableWidget } from '@theia/core/lib/browser/saveable';
import { Widget } from '@theia/core/lib/browser/widgets/widget';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { TerminalWidget } from '@theia/terminal/lib/browser/base/terminal-widget';
import { DIFF_FOCUS_PREF, IdeCompanionPreferences } from '../../common/ide-companion-preferences';
import { EMPTY_ORIGINAL_SCHEME } from './proposed-content-resource-resolver';
import { ReviewedProposal } from './reviewed-proposal';

/**
 * The review's editors: Theia's Monaco diff editor of a proposal (left the file as it is now, right the
 * editable proposal), opened with or without the focus, and closed without a "save changes?" prompt.
 */
@injectable()
export class ReviewEditors {

    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(IdeCompanionPreferences) protected readonly preferences: IdeCompanionPreferences;

    /** How a new proposal's editor opens: by default, it does not take the keyboard from a terminal the user is typing in (the CLI's own, usually). */
    modeForNew(): 'activate' | 'reveal' {
        const focus = this.preferences[DIFF_FOCUS_PREF];
        return focus === 'always' ? 'activate' : focus === 'never' || this.shell.activeWidget instanceof TerminalWidget ? 'reveal' : 'activate';
    }

    /** Opens the diff of the file against the proposal at `proposalUri`; throws when no editor opens. */
    async open(proposal: ReviewedProposal, proposalUri: URI, mode: 'activate' | 'reveal'): Promise<Widget> {
        const fileUri = new URI(proposal.fileUri);
        const left = proposal.fileExists ? fileUri : new URI(`${EMPTY_ORIGINAL_SCHEME}:${fileUri.path.toString()}`).withQuery(proposal.id);
        const label = nls.localize('theia-cli-companion/cli-core/diffTitle', '{0} ↔ proposed by {1}', fileUri.path.base, proposal.proposedBy);
        const widget = await open(this.openerService, DiffUris.encode(left, proposalUri, label), { mode }) as Widget | undefined;
        if (!widget) {
            throw new Error('no editor opened');
        }
        this.closeWithoutSavePrompt(widget);
        return widget;
    }

    /** The shell's current widget: a review's editor when the user works in one. */
    get current(): Widget | undefined {
        return this.shell.currentWidget;
    }

    async activate(widget: Widget): Promise<void> {
        await this.shell.activateWidget(widget.id);
    }

    /**
     * Closing a review is its reject, with no "save changes?" prompt: the proposal is no file, so
     * Theia's question would have no meaning (and no save could accept it). Theia's SaveableService
     * gives every widget with a dirty model a `close` that asks first; the review's closes without.
     */
    protected closeWithoutSavePrompt(widget: Widget): void {
        if (SaveableWidget.is(widget)) {
            const closeWithoutSaving = () => widget.closeWithoutSaving();
            Object.assign(widget, { close: closeWithoutSaving, closeWithSaving: closeWithoutSaving });
        }
    }

    /**
     * Closes the editor as its tab's × does, minus the "save changes?" step (the outcome is settled, and
     * the proposal's model is left as it is). Not a plain dispose: that makes the next editor of the tab
     * bar current while it is still hidden, and Theia (1.74) detaches a hidden editor's model, so its
     * status bar reads a cursor that is not there ("Cannot destructure property 'lineNumber' of
     * 'this.editor.getPosition(...)'") and never shows that editor's position. A close first shows it.
     */
    close(widget: Widget | undefined): void {
        if (widget && !widget.isDisposed) {
            // Theia keeps a saveable widget's own close under this symbol (its `close` asks to save first).
            const closeAsIs = (widget as Widget & { [closeWithoutPrompt]?: () => void })[closeWithoutPrompt] ?? Widget.prototype.close;
            closeAsIs.call(widget);
            if (!widget.isDisposed) {
                widget.dispose();
            }
        }
    }
}
