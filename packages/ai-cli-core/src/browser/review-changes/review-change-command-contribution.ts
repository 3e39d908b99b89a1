import { inject, injectable } from '@theia/core/shared/inversify';
import { CommandContribution, CommandHandler, CommandRegistry } from '@theia/core/lib/common/command';
import { GutterChange, ReviewChangeService } from './review-change-service';
import { ReviewChangeCommands } from './review-change-commands';

/** Accept Change, Reject Change, Next Change and Previous Change: offered only while a review diff is current. */
@injectable()
export class ReviewChangeCommandContribution implements CommandContribution {

    @inject(ReviewChangeService) protected readonly changes: ReviewChangeService;

    registerCommands(commands: CommandRegistry): void {
        // From the gutter, the argument says which change; from the palette or a key, the cursor does.
        const inReview = (run: (arg?: GutterChange) => Promise<void>): CommandHandler => ({
            execute: (arg?: unknown) => run(GutterChange.is(arg) ? arg : undefined),
            isEnabled: (arg?: unknown) => this.changes.target(GutterChange.is(arg) ? arg : undefined) !== undefined,
            isVisible: (arg?: unknown) => this.changes.target(GutterChange.is(arg) ? arg : undefined) !== undefined
        });
        commands.registerCommand(ReviewChangeCommands.ACCEPT_CHANGE, inReview(arg => this.changes.acceptChange(arg)));
        commands.registerCommand(ReviewChangeCommands.REJECT_CHANGE, inReview(arg => this.changes.rejectChange(arg)));
        commands.registerCommand(ReviewChangeCommands.NEXT_CHANGE, inReview(() => this.changes.next()));
        commands.registerCommand(ReviewChangeCommands.PREVIOUS_CHANGE, inReview(() => this.changes.previous()));
    }
}
