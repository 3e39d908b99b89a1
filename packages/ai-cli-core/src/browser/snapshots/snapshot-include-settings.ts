import { inject, injectable } from '@theia/core/shared/inversify';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { SNAPSHOT_INCLUDE_PREF, SnapshotIncludePatternSchema, SnapshotIncludeSchema } from '../../common/snapshot-include';
import { ExecutionSettings } from '../untrusted-workspace/execution-settings';

/**
 * `aiCliCompanion.snapshots.include`, from the user's settings only (a repository that could set `**`
 * would have node_modules, or its own huge files, copied into every snapshot), checked: a pattern the
 * backend would refuse (outside the folder, or wider than safe, like `**`) is left out with a notice
 * (once per distinct problem), the others are used, so a bad setting never stops a task or a chat turn.
 */
@injectable()
export class SnapshotIncludeSettings {

    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(MessageService) protected readonly messages: MessageService;

    protected readonly noticed = new Set<string>();

    get(): string[] {
        const value = this.settings.get<string[]>(SNAPSHOT_INCLUDE_PREF, 'sharing') ?? [];
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
        // What is fine on its own is still recorded; a list too long or not a list is not used at all.
        return Array.isArray(value) && value.length <= 100
            ? value.filter(glob => SnapshotIncludePatternSchema.safeParse(glob).success)
            : [];
    }
}
