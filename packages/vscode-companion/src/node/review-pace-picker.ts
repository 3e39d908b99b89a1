import * as vscode from 'vscode';
import { CLI_FLAVOUR_DISPLAY_NAMES, CLI_FLAVOUR_IDS, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { REVIEW_PACES, ReviewPace } from '@theia-cli-companion/ide-companion-server/lib/common';
import type { CompanionSettings } from './companion-settings';

/** What each pace means, as the setting's description says it. */
function paceLabel(pace: ReviewPace): { label: string; detail: string } {
    switch (pace) {
        case 'open': return { label: vscode.l10n.t('Open each diff'), detail: vscode.l10n.t('Open each proposed change in a diff editor.') };
        case 'queue': return {
            label: vscode.l10n.t('Queue quietly'),
            detail: vscode.l10n.t('No editor opens and the focus stays where it is; review them from Pending Changes.')
        };
        case 'accept': return {
            label: vscode.l10n.t('Accept automatically'),
            detail: vscode.l10n.t('Accept proposed changes as proposed; they stay listed in Pending Changes with Undo.')
        };
    }
}

/** "Set Review Pace…": which CLI, then its pace, written to the user's settings (the only ones read). */
export async function pickReviewPace(settings: CompanionSettings): Promise<void> {
    const cli = await vscode.window.showQuickPick(CLI_FLAVOUR_IDS.map(flavour => ({
        label: CLI_FLAVOUR_DISPLAY_NAMES[flavour],
        description: paceLabel(settings.reviewPace({ kind: 'cli', flavour })).label,
        flavour
    })), { placeHolder: vscode.l10n.t('Whose proposed changes?') });
    if (!cli) {
        return;
    }
    const current = settings.reviewPace({ kind: 'cli', flavour: cli.flavour });
    const pace = await vscode.window.showQuickPick(REVIEW_PACES.map(candidate => ({
        ...paceLabel(candidate),
        description: candidate === current ? '✓' : undefined,
        pace: candidate
    })), { placeHolder: vscode.l10n.t('How should changes from {0} reach you?', cli.label) });
    if (pace) {
        await settings.setReviewPace(cli.flavour as CliFlavourId, pace.pace);
    }
}
