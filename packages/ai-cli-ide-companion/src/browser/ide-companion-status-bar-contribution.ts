import { inject, injectable, named } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { StatusBar, StatusBarAlignment } from '@theia/core/lib/browser/status-bar/status-bar';
import { ILogger } from '@theia/core/lib/common/logger';
import { nls } from '@theia/core/lib/common/nls';
import { CLI_FLAVOUR_DISPLAY_NAMES } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common/cli-flavour-id';
import { WindowCompanionStatus } from '../common/ide-companion-protocol';
import { WindowCompanionService } from './window-companion-service';

export const IDE_COMPANION_STATUS_BAR_ID = 'ai-cli-ide-companion.status';

/** Starts this window's companion with the app and shows how many CLI sessions are connected to it. */
@injectable()
export class IdeCompanionStatusBarContribution implements FrontendApplicationContribution {

    @inject(StatusBar) protected readonly statusBar: StatusBar;
    @inject(WindowCompanionService) protected readonly companion: WindowCompanionService;
    @inject(ILogger) @named('ai-cli-ide-companion:IdeCompanionStatusBarContribution') protected readonly logger: ILogger;

    onStart(): void {
        this.companion.onDidChangeStatus(status => this.render(status));
        this.companion.attach().catch(error => {
            this.logger.error(`The CLI companion could not start for this window: ${error}`);
            this.statusBar.setElement(IDE_COMPANION_STATUS_BAR_ID, {
                text: '$(warning) CLI',
                tooltip: nls.localize('theia-cli-companion/ide-companion/statusFailed', 'CLI Companion could not start: {0}', String(error)),
                alignment: StatusBarAlignment.LEFT,
                priority: 5
            });
        });
    }

    protected render(status: WindowCompanionStatus): void {
        const count = status.sessions.length;
        const flavours = status.flavours.map(id => CLI_FLAVOUR_DISPLAY_NAMES[id]).join(', ');
        const lines = [
            nls.localize('theia-cli-companion/ide-companion/statusServer', 'CLI Companion for {0} on 127.0.0.1:{1}', flavours, String(status.port)),
            status.workspaceRoots.length
                ? nls.localize('theia-cli-companion/ide-companion/statusRoots', 'Workspace: {0}', status.workspaceRoots.join(', '))
                : nls.localize('theia-cli-companion/ide-companion/statusNoFolder', 'No folder open: CLIs will ask you to open one'),
            count
                ? nls.localize('theia-cli-companion/ide-companion/statusSessions', 'Connected CLI sessions:')
                : nls.localize('theia-cli-companion/ide-companion/statusNoSessions', 'No CLI connected. Run `gemini` or `qwen` in a terminal of this window, then `/ide enable`.'),
            ...status.sessions.map(session =>
                `• ${session.clientName} ${session.clientVersion} (${nls.localize('theia-cli-companion/ide-companion/since', 'since {0}', new Date(session.connectedAt).toLocaleTimeString())})`)
        ];
        this.statusBar.setElement(IDE_COMPANION_STATUS_BAR_ID, {
            text: count ? `$(plug) CLI ${count}` : '$(debug-disconnect) CLI',
            tooltip: lines.join('\n'),
            alignment: StatusBarAlignment.LEFT,
            priority: 5,
            accessibilityInformation: {
                label: nls.localize('theia-cli-companion/ide-companion/statusAria', '{0} CLI sessions connected to this window', String(count))
            }
        });
    }
}
