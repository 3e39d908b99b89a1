import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { StatusBar, StatusBarAlignment, StatusBarEntry } from '@theia/core/lib/browser/status-bar/status-bar';
import { nls } from '@theia/core/lib/common/nls';
import { CLI_FLAVOUR_DISPLAY_NAMES } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { CompanionCommands } from './companion-commands';
import { DiffReviewService, WindowServerService, WindowServerState } from '@theia-cli-companion/ai-cli-core/lib/browser';

export const IDE_COMPANION_STATUS_BAR_ID = 'ai-cli-ide-companion.status';

/** Shows at a glance whether CLIs are connected to this window; a click opens the companion's menu. */
@injectable()
export class IdeCompanionStatusBarContribution implements FrontendApplicationContribution {

    @inject(StatusBar) protected readonly statusBar: StatusBar;
    @inject(WindowServerService) protected readonly companion: WindowServerService;
    @inject(DiffReviewService) protected readonly diffs: DiffReviewService;

    onStart(): void {
        this.render(this.companion.state);
        this.companion.onDidChangeState(state => this.render(state));
        this.diffs.onDidChange(() => this.render(this.companion.state));
    }

    protected render(state: WindowServerState): void {
        const entry = this.entryFor(state);
        // Every proposal waiting in this window (CLIs' and chat agents'), counted where the user looks.
        const pending = this.diffs.pending.length;
        void this.statusBar.setElement(IDE_COMPANION_STATUS_BAR_ID, {
            ...entry,
            ...(pending ? {
                text: `${entry.text} $(diff) ${pending}`,
                tooltip: `${nls.localize('theia-cli-companion/ide-companion/statusPending',
                    '{0} change(s) waiting for review: see Pending Changes', String(pending))}\n${entry.tooltip}`
            } : {}),
            alignment: StatusBarAlignment.LEFT,
            priority: 5,
            command: CompanionCommands.SHOW_MENU.id
        });
    }

    protected entryFor(state: WindowServerState): Pick<StatusBarEntry, 'text' | 'tooltip' | 'accessibilityInformation'> {
        const clickHint = nls.localize('theia-cli-companion/ide-companion/statusClick', 'Click for the CLI Companion menu.');
        switch (state.kind) {
            case 'starting':
                return { text: '$(sync~spin) CLI', tooltip: nls.localize('theia-cli-companion/ide-companion/statusStarting', 'CLI Companion is starting…') };
            case 'disabled':
                return {
                    text: '$(circle-slash) CLI',
                    tooltip: `${nls.localize('theia-cli-companion/ide-companion/statusDisabled',
                        'CLI Companion is turned off: CLIs in this window\'s terminals run without IDE mode.')}\n${clickHint}`
                };
            case 'failed':
                return {
                    text: '$(warning) CLI',
                    tooltip: `${nls.localize('theia-cli-companion/ide-companion/statusFailed', 'CLI Companion could not start: {0}', state.error)}\n${clickHint}`
                };
        }
        const status = state.status;
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
                `• ${session.clientLabel}: ${session.clientName} ${session.clientVersion} (${nls.localize('theia-cli-companion/ide-companion/since',
                    'since {0}', new Date(session.connectedAt).toLocaleTimeString())})`),
            ...status.unavailableFlavours.map(({ flavour, reason }) => nls.localize('theia-cli-companion/ide-companion/statusUnavailable',
                '{0} cannot connect: {1}', CLI_FLAVOUR_DISPLAY_NAMES[flavour], reason)),
            clickHint
        ];
        return {
            text: count ? `$(plug) CLI ${count}` : '$(debug-disconnect) CLI',
            tooltip: lines.join('\n'),
            accessibilityInformation: {
                label: nls.localize('theia-cli-companion/ide-companion/statusAria', '{0} CLI sessions connected to this window', String(count))
            }
        };
    }
}
