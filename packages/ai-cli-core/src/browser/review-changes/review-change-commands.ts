import { Command } from '@theia/core/lib/common/command';
import { codicon } from '@theia/core/lib/browser/widgets/widget';

export namespace ReviewChangeCommands {
    const CATEGORY = 'CLI Companion';
    const CATEGORY_KEY = 'theia-cli-companion/cli-core/category';
    export const ACCEPT_CHANGE = Command.toLocalizedCommand({ id: 'aiCliCompanion.acceptChange', category: CATEGORY, label: 'Accept Change', iconClass: codicon('check') },
        'theia-cli-companion/cli-core/acceptChange', CATEGORY_KEY);
    export const REJECT_CHANGE = Command.toLocalizedCommand({ id: 'aiCliCompanion.rejectChange', category: CATEGORY, label: 'Reject Change', iconClass: codicon('close') },
        'theia-cli-companion/cli-core/rejectChange', CATEGORY_KEY);
    export const NEXT_CHANGE = Command.toLocalizedCommand({ id: 'aiCliCompanion.nextChange', category: CATEGORY, label: 'Next Change' },
        'theia-cli-companion/cli-core/nextChange', CATEGORY_KEY);
    export const PREVIOUS_CHANGE = Command.toLocalizedCommand({ id: 'aiCliCompanion.previousChange', category: CATEGORY, label: 'Previous Change' },
        'theia-cli-companion/cli-core/previousChange', CATEGORY_KEY);
}

/** True while the current widget is a diff reviewed change by change (a proposal, or an agent task's change). */
export const REVIEW_DIFF_FOCUS_CONTEXT = 'aiCliReviewDiffFocus';
