import { inject, injectable } from '@theia/core/shared/inversify';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { nls } from '@theia/core/lib/common/nls';
import { CLI_FLAVOUR_DISPLAY_NAMES, CLI_FLAVOUR_IDS } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { ACP_REVIEW_PACE_PREF, flavourPreference, ReviewPace } from '../../common/ide-companion-preferences';
import { ReviewOrigin, reviewPaceOf, reviewPaceSetting } from '@theia-cli-companion/ide-companion-server/lib/common';
import { ExecutionSettings } from '../untrusted-workspace/execution-settings';

/** Whose pace a setting is: one CLI flavour, or the chat's agents. */
export interface PaceTarget {
    readonly preference: string;
    readonly label: string;
}

/**
 * The user's review pace for each origin. Read from user settings only: a repository that could set
 * `accept` would have its own agent's edits applied unseen.
 */
@injectable()
export class ReviewPaceSettings {

    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(PreferenceService) protected readonly preferences: PreferenceService;

    of(origin: ReviewOrigin): ReviewPace {
        const preference = reviewPaceSetting(origin);
        return preference ? this.paceIn(preference) : 'open';
    }

    targets(): PaceTarget[] {
        return [
            ...CLI_FLAVOUR_IDS.map(flavour => ({ preference: flavourPreference(flavour, 'reviewPace'), label: CLI_FLAVOUR_DISPLAY_NAMES[flavour] })),
            { preference: ACP_REVIEW_PACE_PREF, label: nls.localize('theia-cli-companion/cli-core/chatAgentsTarget', 'Agents in the chat') }
        ];
    }

    current(target: PaceTarget): ReviewPace {
        return this.paceIn(target.preference);
    }

    /** The user's value of a pace setting; anything that is not a pace (a hand-edited settings file) is `open`. */
    protected paceIn(preference: string): ReviewPace {
        return reviewPaceOf(this.settings.get<string>(preference, 'review'));
    }

    async set(target: PaceTarget, pace: ReviewPace): Promise<void> {
        await this.preferences.set(target.preference, pace, PreferenceScope.User);
    }
}
