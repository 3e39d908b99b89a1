import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core/lib/common/event';
import { Command, CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { TabBarToolbarContribution, TabBarToolbarRegistry } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { codicon } from '@theia/core/lib/browser/widgets/widget';
import { ChatViewWidget } from '@theia/ai-chat-ui/lib/browser/chat-view-widget';
import { AcpChatPreferences, ACP_FOLLOW_AGENT_PREF } from '../../common/acp-chat-preferences';

/** The companion's commands share one category, localized once (by ai-cli-core). */
const CATEGORY_KEY = 'theia-cli-companion/ide-companion/category';
export const FOLLOW_AGENT_COMMAND = Command.toLocalizedCommand({
    id: 'aiCliCompanion.acp.toggleFollowAgent', category: 'CLI Companion', label: 'Follow the Agent'
}, 'theia-cli-companion/acp-chat/followAgent', CATEGORY_KEY);

/** *Follow the Agent* on and off: in the palette and as a toggle in the chat view's toolbar. */
@injectable()
export class FollowAgentToggleContribution implements CommandContribution, TabBarToolbarContribution {

    @inject(AcpChatPreferences) protected readonly preferences: AcpChatPreferences;
    @inject(PreferenceService) protected readonly preferenceService: PreferenceService;

    /** The toolbar's toggle is drawn again when the preference changes (in the settings, too). */
    protected readonly onDidChangeEmitter = new Emitter<void>();

    @postConstruct()
    protected init(): void {
        this.preferences.onPreferenceChanged(change => {
            if (change.preferenceName === ACP_FOLLOW_AGENT_PREF) {
                this.onDidChangeEmitter.fire();
            }
        });
    }

    registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(FOLLOW_AGENT_COMMAND, {
            execute: () => this.preferenceService.set(ACP_FOLLOW_AGENT_PREF, !this.preferences[ACP_FOLLOW_AGENT_PREF], PreferenceScope.User),
            isToggled: () => !!this.preferences[ACP_FOLLOW_AGENT_PREF]
        });
    }

    registerToolbarItems(toolbar: TabBarToolbarRegistry): void {
        toolbar.registerItem({
            id: FOLLOW_AGENT_COMMAND.id, command: FOLLOW_AGENT_COMMAND.id, tooltip: FOLLOW_AGENT_COMMAND.label,
            icon: () => codicon(this.preferences[ACP_FOLLOW_AGENT_PREF] ? 'eye' : 'eye-closed'),
            isVisible: widget => widget?.id === ChatViewWidget.ID,
            onDidChange: this.onDidChangeEmitter.event
        });
    }
}
