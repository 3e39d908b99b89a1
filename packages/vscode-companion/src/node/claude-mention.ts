import * as vscode from 'vscode';
import type { ClaudeAtMentioned } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { WindowHost } from './window-host';

/**
 * "Send Selection to Claude Code", as Claude Code's own VS Code extension shares a selection: from an
 * editor, its file and selected lines; from the explorer, the selected files. Claude Code puts
 * `@file#La-b` into its prompt. Answers how many sessions got the last mention. `selected` is the
 * Explorer's selection, given only from there.
 */
export async function sendToClaude(host: WindowHost, uri?: vscode.Uri, selected?: vscode.Uri[]): Promise<number> {
    const editor = vscode.window.activeTextEditor;
    // The Explorer passes its selection as a list (even of one file, which may be open in the active editor); an editor does not.
    const fromExplorer = !!uri && selected !== undefined;
    const uris = fromExplorer ? (selected.length ? selected : [uri]) : editor ? [editor.document.uri] : [];
    const mentions: ClaudeAtMentioned[] = uris.filter(candidate => candidate.scheme === 'file').map(candidate => {
        if (fromExplorer || !editor || editor.selection.isEmpty) {
            return { filePath: candidate.fsPath };
        }
        const { start, end } = editor.selection;
        // A selection ending at the start of a line does not take that line.
        const lastLine = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
        return { filePath: candidate.fsPath, lineStart: start.line, lineEnd: lastLine };
    });
    if (!mentions.length) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a file of the workspace to send its selection to Claude Code.'));
        return 0;
    }
    let reached = 0;
    try {
        for (const mention of mentions) {
            reached = await host.sendAtMention(mention);
        }
    } catch (error) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not send the selection to Claude Code: {0}', error instanceof Error ? error.message : String(error)));
        return 0;
    }
    if (reached === 0) {
        const run = vscode.l10n.t('Run Claude Code');
        const answer = await vscode.window.showInformationMessage(
            vscode.l10n.t('No Claude Code session is connected to this window. Start Claude Code in one of its terminals first.'), run);
        if (answer === run) {
            await vscode.commands.executeCommand('aiCliCompanion.runClaude');
        }
    }
    return reached;
}
