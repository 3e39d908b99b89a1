import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { KEEP_AWAKE_INTERVAL_PREF } from '../../common/ide-companion-preferences';
import { KEEP_AWAKE_DEFAULT_INTERVAL_SECONDS, KeepAwakeBackend } from '../../common/keep-awake-protocol';

/**
 * Gives the backend the user's keep-awake interval at start and whenever it changes. The backend is
 * shared by every window (its agents outlive them), so only the user's own value counts, never a
 * workspace's, which would change it for the other windows too.
 */
@injectable()
export class KeepAwakeIntervalSetting implements FrontendApplicationContribution {
    @inject(PreferenceService) protected readonly preferences: PreferenceService;
    @inject(KeepAwakeBackend) protected readonly backend: KeepAwakeBackend;
    protected readonly toDispose = new DisposableCollection();

    onStart(): void {
        void this.preferences.ready.then(() => this.push());
        this.toDispose.push(this.preferences.onPreferenceChanged(change => {
            if (change.preferenceName === KEEP_AWAKE_INTERVAL_PREF) {
                this.push();
            }
        }));
    }

    onStop(): void {
        this.toDispose.dispose();
    }

    protected push(): void {
        const seconds = this.preferences.inspect<number>(KEEP_AWAKE_INTERVAL_PREF)?.globalValue ?? KEEP_AWAKE_DEFAULT_INTERVAL_SECONDS;
        void this.backend.setIntervalSeconds(seconds);
    }
}
