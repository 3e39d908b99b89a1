import * as vscode from 'vscode';
import { CLI_FLAVOUR_DISPLAY_NAMES } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { WindowServerStatus } from '@theia-cli-companion/ide-companion-server/lib/common';

export const SHOW_STATUS_COMMAND = 'aiCliCompanion.showStatus';
export const SHOW_MENU_COMMAND = 'aiCliCompanion.showMenu';

/** The status bar item: connected CLIs and pending proposals at a glance; a click opens the companion's menu. */
export class CompanionStatusBar implements vscode.Disposable {
    protected readonly item = vscode.window.createStatusBarItem('aiCliCompanion.status', vscode.StatusBarAlignment.Left, 10);

    constructor() {
        this.item.name = vscode.l10n.t('AI CLI Companion');
        this.item.command = SHOW_MENU_COMMAND;
        this.update(undefined);
        this.item.show();
    }

    update(status: WindowServerStatus | undefined, pending = status?.pendingDiffs.length ?? 0): void {
        if (!status) {
            this.item.text = '$(debug-disconnect) ' + vscode.l10n.t('CLI Companion: off');
            this.item.tooltip = vscode.l10n.t('The companion server of this window is not running.');
            this.item.backgroundColor = undefined;
            return;
        }
        const sessions = status.sessions.length;
        this.item.text = pending > 0
            ? `$(diff) ${vscode.l10n.t('CLI: {0} to review', pending)}`
            : `$(${sessions > 0 ? 'plug' : 'circle-outline'}) ${vscode.l10n.t('CLI: {0} connected', sessions)}`;
        this.item.backgroundColor = pending > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
        const lines = [
            vscode.l10n.t('Companion server on 127.0.0.1:{0}', status.port),
            vscode.l10n.t('IDE mode for: {0}', status.flavours.map(id => CLI_FLAVOUR_DISPLAY_NAMES[id]).join(', ') || vscode.l10n.t('none')),
            ...status.sessions.map(session => `• ${session.clientLabel} (${session.clientName} ${session.clientVersion})`),
            ...status.unavailableFlavours.map(({ flavour, reason }) => vscode.l10n.t('{0} unavailable: {1}', CLI_FLAVOUR_DISPLAY_NAMES[flavour], reason))
        ];
        this.item.tooltip = lines.join('\n');
    }

    dispose(): void {
        this.item.dispose();
    }
}
