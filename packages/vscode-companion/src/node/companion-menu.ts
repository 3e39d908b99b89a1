import * as vscode from 'vscode';
import type { WindowHost } from './window-host';

/** A row of the companion's menu: a command of the extension, with what it shows in the menu. */
interface MenuItem extends vscode.QuickPickItem {
    readonly command: string;
}

/**
 * The status bar item's menu: what the companion can do in this window, one click away (the same
 * entries as the Theia host's status bar menu).
 */
export async function showCompanionMenu(host: WindowHost): Promise<void> {
    const pending = host.diffs.pending.length;
    const items: (MenuItem | vscode.QuickPickItem)[] = [
        { label: `$(diff) ${vscode.l10n.t('Show Pending Changes')}`, description: vscode.l10n.t('{0} to review', pending), command: 'aiCliCompanion.showPendingChanges' },
        ...pending ? [
            { label: `$(check-all) ${vscode.l10n.t('Accept All Diffs')}`, command: 'aiCliCompanion.acceptAllDiffs' },
            { label: `$(close-all) ${vscode.l10n.t('Close All Diffs')}`, description: vscode.l10n.t('rejects every waiting proposal'), command: 'aiCliCompanion.closeAllDiffs' }
        ] : [],
        { label: `$(dashboard) ${vscode.l10n.t('Set Review Pace…')}`, command: 'aiCliCompanion.setReviewPace' },
        { label: '', kind: vscode.QuickPickItemKind.Separator },
        { label: `$(terminal) ${vscode.l10n.t('Run Gemini CLI')}`, command: 'aiCliCompanion.runGemini' },
        { label: `$(terminal) ${vscode.l10n.t('Run Qwen Code')}`, command: 'aiCliCompanion.runQwen' },
        { label: `$(terminal) ${vscode.l10n.t('Run Claude Code')}`, command: 'aiCliCompanion.runClaude' },
        { label: '', kind: vscode.QuickPickItemKind.Separator },
        { label: `$(info) ${vscode.l10n.t('Show Status')}`, command: 'aiCliCompanion.showStatus' },
        { label: `$(output) ${vscode.l10n.t('Show Log')}`, command: 'aiCliCompanion.showLog' },
        { label: `$(copy) ${vscode.l10n.t('Copy Diagnostic Report')}`, command: 'aiCliCompanion.copyDiagnosticReport' }
    ];
    const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('AI CLI Companion') });
    if (picked && 'command' in picked) {
        await vscode.commands.executeCommand(picked.command);
    }
}
