import { inject, injectable } from '@theia/core/shared/inversify';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import URI from '@theia/core/lib/common/uri';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { SNAPSHOT_INCLUDE_PREF, SnapshotIncludeSchema } from '../../common/snapshot-include';

/**
 * `aiCliCompanion.snapshots.include` for a folder, checked: a value the backend would refuse is left out
 * with a notice (once per distinct value), so a bad setting never stops a task or a chat turn.
 */
@injectable()
export class SnapshotIncludeSettings {

    @inject(PreferenceService) protected readonly preferences: PreferenceService;
    @inject(MessageService) protected readonly messages: MessageService;

    protected readonly noticed = new Set<string>();

    get(folder?: URI): string[] {
        const value = this.preferences.get<unknown>(SNAPSHOT_INCLUDE_PREF, [], folder?.toString());
        const parsed = SnapshotIncludeSchema.safeParse(value);
        if (parsed.success) {
            return parsed.data;
        }
        const problem = formatZodIssues(parsed.error, SNAPSHOT_INCLUDE_PREF);
        if (!this.noticed.has(problem)) {
            this.noticed.add(problem);
            this.messages.warn(nls.localize('theia-cli-companion/cli-core/snapshotIncludeInvalid',
                'Setting {0} is not used: {1}', SNAPSHOT_INCLUDE_PREF, problem));
        }
        return [];
    }
}
