import { injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { MenuId, MenuRegistry } from '@theia/monaco-editor-core/esm/vs/platform/actions/common/actions';
import { ContextKeyExpr } from '@theia/monaco-editor-core/esm/vs/platform/contextkey/common/contextkey';
import { Codicon } from '@theia/monaco-editor-core/esm/vs/base/common/codicons';
import { REVIEW_DIFF_FOCUS_CONTEXT, ReviewChangeCommands } from './review-change-commands';

/**
 * Accept Change and Reject Change in the toolbar Monaco's diff editor shows next to each change (the
 * gutter between the sides, where Monaco's own "Revert Block" is). Monaco runs the items through Theia's
 * command registry with the change as argument.
 */
@injectable()
export class ChangeToolbarContribution implements FrontendApplicationContribution {
    protected readonly toDispose = new DisposableCollection();

    onStart(): void {
        const when = ContextKeyExpr.has(REVIEW_DIFF_FOCUS_CONTEXT);
        // Before Monaco's Revert Block (order 5), which does what Reject Change does and moves to the toolbar's
        // overflow menu: it shows two items and "More Actions", and only the first where a change at line 1 is small.
        this.toDispose.push(MenuRegistry.appendMenuItem(MenuId.DiffEditorHunkToolbar, {
            command: { id: ReviewChangeCommands.REJECT_CHANGE.id, title: ReviewChangeCommands.REJECT_CHANGE.label!, icon: Codicon.close },
            when, group: 'primary', order: 3
        }));
        this.toDispose.push(MenuRegistry.appendMenuItem(MenuId.DiffEditorHunkToolbar, {
            command: { id: ReviewChangeCommands.ACCEPT_CHANGE.id, title: ReviewChangeCommands.ACCEPT_CHANGE.label!, icon: Codicon.check },
            when, group: 'primary', order: 4
        }));
    }

    onStop(): void {
        this.toDispose.dispose();
    }
}
