import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { CommonCommands } from '@theia/core/lib/browser/common-commands';
import { CommandService } from '@theia/core/lib/common/command';
import type { JSONValue } from '@theia/core/shared/@lumino/coreutils';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';

/**
 * What a user-scoped setting decides, for the notice that says a workspace's value is ignored: what runs,
 * how changes are reviewed, what the user's agents are given (MCP servers, files in snapshots), or what
 * the IDE itself writes.
 */
export type GuardedSetting = 'execution' | 'review' | 'sharing' | 'writes';

/**
 * The settings that decide what the IDE executes (commands, their arguments and environment, agent
 * definitions, whether IDE mode is on), how changes are reviewed, what agents are given (MCP servers,
 * files in snapshots) and what the IDE itself writes, read from the user's own settings and the
 * defaults only: a cloned repository's `.theia/settings.json` must never choose them. Declaring such a preference user-scoped is not
 * enough: Theia keeps a folder's value for it and only skips the change event, so the scope is
 * enforced here, on every read. A value the workspace tried to set is ignored with a notice, once per
 * setting and window.
 */
@injectable()
export class ExecutionSettings {

    @inject(PreferenceService) protected readonly preferences: PreferenceService;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(CommandService) protected readonly commands: CommandService;
    @inject(ILogger) @named('ai-cli-core:ExecutionSettings') protected readonly logger: ILogger;

    protected readonly noticed = new Set<string>();

    /**
     * The user's value of `preferenceName`, else its default; what the workspace or a folder sets is never
     * used. `guards` says what the setting decides, for the notice.
     */
    get<T extends JSONValue>(preferenceName: string, guards: GuardedSetting = 'execution'): T | undefined {
        const inspection = this.preferences.inspect<T>(preferenceName);
        if (this.workspaceSets(preferenceName)) {
            this.notice(preferenceName, guards);
        }
        return inspection?.globalValue ?? inspection?.defaultValue;
    }

    /** Whether the workspace file or any folder's settings set a value (each root is asked, for multi-root workspaces). */
    workspaceSets(preferenceName: string): boolean {
        const resources = [undefined, ...this.workspace.tryGetRoots().map(root => root.resource.toString())];
        return resources.some(resource => {
            const inspection = this.preferences.inspect(preferenceName, resource);
            return inspection?.workspaceValue !== undefined || inspection?.workspaceFolderValue !== undefined;
        });
    }

    protected notice(preferenceName: string, guards: GuardedSetting): void {
        if (this.noticed.has(preferenceName)) {
            return;
        }
        this.noticed.add(preferenceName);
        const message = this.noticeText(preferenceName, guards);
        this.logger.warn(message);
        const openUserSettings = nls.localize('theia-cli-companion/cli-core/openUserSettings', 'Open User Settings');
        void this.messages.warn(message, openUserSettings).then(answer => {
            if (answer === openUserSettings) {
                void this.commands.executeCommand(CommonCommands.OPEN_PREFERENCES.id, preferenceName);
            }
        });
    }

    protected noticeText(preferenceName: string, guards: GuardedSetting): string {
        switch (guards) {
            case 'review': return nls.localize('theia-cli-companion/cli-core/workspaceReviewSettingIgnored',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal, and this one alone is longer than a line
                'This workspace\'s settings set "{0}". CLI Companion ignores that: how proposed changes are reviewed comes from your user settings only, so a repository cannot turn review off.',
                preferenceName);
            case 'sharing': return nls.localize('theia-cli-companion/cli-core/workspaceSharingSettingIgnored',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal, and this one alone is longer than a line
                'This workspace\'s settings set "{0}". CLI Companion ignores that: what your agents are given (your MCP servers, the files snapshots record) comes from your user settings only, so a repository cannot choose it.',
                preferenceName);
            case 'writes': return nls.localize('theia-cli-companion/cli-core/workspaceWriteSettingIgnored',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal, and this one alone is longer than a line
                'This workspace\'s settings set "{0}". CLI Companion ignores that: what the IDE itself writes comes from your user settings only, so a repository cannot choose it.',
                preferenceName);
            default: return nls.localize('theia-cli-companion/cli-core/workspaceSettingIgnored',
                'This workspace\'s settings set "{0}". CLI Companion ignores that: what it runs comes from your user settings only, so a repository cannot choose it.',
                preferenceName);
        }
    }
}
