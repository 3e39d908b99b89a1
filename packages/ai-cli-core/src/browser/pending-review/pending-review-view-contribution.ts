import { inject, injectable } from '@theia/core/shared/inversify';
import { AbstractViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import { CommandRegistry } from '@theia/core/lib/common/command';
import { DiffReviewService } from '../diff-review/diff-review-service';
import { PendingReviewCommands } from './pending-review-commands';
import { PendingReviewWidget } from './pending-review-widget';

/** The "Pending Changes" view in the left side panel, and the commands over every pending proposal. */
@injectable()
export class PendingReviewViewContribution extends AbstractViewContribution<PendingReviewWidget> {

    @inject(DiffReviewService) protected readonly diffs: DiffReviewService;

    constructor() {
        super({
            widgetId: PendingReviewWidget.ID,
            widgetName: PendingReviewWidget.LABEL,
            defaultWidgetOptions: { area: 'left', rank: 650 }
        });
    }

    override registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(PendingReviewCommands.SHOW_PENDING_CHANGES, { execute: () => this.openView({ activate: true, reveal: true }) });
        commands.registerCommand(PendingReviewCommands.ACCEPT_ALL_DIFFS, { execute: () => this.diffs.acceptAll(), isEnabled: () => this.diffs.pending.length > 0 });
        commands.registerCommand(PendingReviewCommands.REJECT_ALL_DIFFS, { execute: () => this.diffs.rejectAll(), isEnabled: () => this.diffs.pending.length > 0 });
    }
}
