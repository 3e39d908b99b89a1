import * as vscode from 'vscode';
import { CLI_FLAVOUR_DISPLAY_NAMES } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { WindowHost } from './window-host';

/** "Show Status": the window's server, its CLIs and what waits for review, with what can be done next. */
export async function showStatus(host: WindowHost, channel: vscode.OutputChannel): Promise<void> {
    const status = host.status;
    const items: (vscode.QuickPickItem & { run?: () => unknown })[] = status ? [
        { label: vscode.l10n.t('Server on 127.0.0.1:{0}', status.port), description: status.workspaceRoots.join(', ') },
        // Why the file is where it is, where that was a choice (Gemini CLI's standard or private directory).
        ...status.discoveryFiles.map(file => ({ label: `$(file) ${CLI_FLAVOUR_DISPLAY_NAMES[file.flavour]}`, description: file.path, detail: file.placement })),
        ...status.sessions.map(session => ({ label: `$(plug) ${session.clientLabel}`, description: `${session.clientName} ${session.clientVersion}` })),
        ...status.unavailableFlavours.map(({ flavour, reason }) => ({ label: `$(warning) ${CLI_FLAVOUR_DISPLAY_NAMES[flavour]}`, description: reason }))
    ] : [{ label: vscode.l10n.t('The companion server of this window is off (setting aiCliCompanion.enabled).') }];
    items.push(
        { label: '', kind: vscode.QuickPickItemKind.Separator },
        { label: `$(diff) ${vscode.l10n.t('Review Pending Diffs ({0})', host.diffs.pending.length)}`, run: () => host.diffs.showPending() },
        { label: `$(output) ${vscode.l10n.t('Show Log')}`, run: () => channel.show() }
    );
    const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('AI CLI Companion') });
    await picked?.run?.();
}
