import { inject, injectable } from '@theia/core/shared/inversify';
import { CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { QuickInputService, QuickPickItem } from '@theia/core/lib/common/quick-pick-service';
import { nls } from '@theia/core/lib/common/nls';
import { ReviewPace } from '../../common/ide-companion-preferences';
import { PendingReviewCommands } from './pending-review-commands';
import { PaceTarget, ReviewPaceSettings } from '../diff-review/review-pace-settings';

const PACE_LABELS: Record<ReviewPace, () => string> = {
    open: () => nls.localize('theia-cli-companion/cli-core/paceOpenLabel', 'Open each diff'),
    queue: () => nls.localize('theia-cli-companion/cli-core/paceQueueLabel', 'Queue quietly'),
    accept: () => nls.localize('theia-cli-companion/cli-core/paceAcceptLabel', 'Accept automatically')
};

/** "Set Review Pace…": who (a CLI, the chat's agents), then how their changes reach the user; a user setting. */
@injectable()
export class ReviewPaceCommandContribution implements CommandContribution {

    @inject(ReviewPaceSettings) protected readonly pace: ReviewPaceSettings;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;

    registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(PendingReviewCommands.SET_REVIEW_PACE, { execute: () => this.choose() });
    }

    protected async choose(): Promise<void> {
        const target = await this.quickInput.showQuickPick<QuickPickItem & { target: PaceTarget }>(
            this.pace.targets().map(candidate => ({ label: candidate.label, description: PACE_LABELS[this.pace.current(candidate)](), target: candidate })),
            { placeholder: nls.localize('theia-cli-companion/cli-core/paceWho', 'Whose proposed changes?') });
        if (!target) {
            return;
        }
        const current = this.pace.current(target.target);
        const chosen = await this.quickInput.showQuickPick<QuickPickItem & { pace: ReviewPace }>(
            (Object.keys(PACE_LABELS) as ReviewPace[]).map(pace => ({ label: PACE_LABELS[pace](), description: pace === current ? '✓' : undefined, pace })),
            { placeholder: nls.localize('theia-cli-companion/cli-core/paceHow', 'How should changes from {0} reach you?', target.target.label) });
        if (chosen) {
            await this.pace.set(target.target, chosen.pace);
        }
    }
}
