import { Command } from '@theia/core/lib/common/command';

export namespace PendingReviewCommands {
    const CATEGORY = 'CLI Companion';
    const CATEGORY_KEY = 'theia-cli-companion/cli-core/category';
    export const SHOW_PENDING_CHANGES = Command.toLocalizedCommand({ id: 'aiCliCompanion.showPendingChanges', category: CATEGORY, label: 'Show Pending Changes' },
        'theia-cli-companion/cli-core/showPendingChanges', CATEGORY_KEY);
    export const ACCEPT_ALL_DIFFS = Command.toLocalizedCommand({ id: 'aiCliCompanion.acceptAllDiffs', category: CATEGORY, label: 'Accept All Diffs' },
        'theia-cli-companion/cli-core/acceptAllDiffs', CATEGORY_KEY);
    export const REJECT_ALL_DIFFS = Command.toLocalizedCommand({ id: 'aiCliCompanion.rejectAllDiffs', category: CATEGORY, label: 'Reject All Diffs' },
        'theia-cli-companion/cli-core/rejectAllDiffs', CATEGORY_KEY);
    export const SET_REVIEW_PACE = Command.toLocalizedCommand({ id: 'aiCliCompanion.setReviewPace', category: CATEGORY, label: 'Set Review Pace…' },
        'theia-cli-companion/cli-core/setReviewPace', CATEGORY_KEY);
}
