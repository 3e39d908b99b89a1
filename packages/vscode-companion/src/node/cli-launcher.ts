import * as path from 'path';
import * as vscode from 'vscode';
import { quote } from 'shell-quote';
import { CLI_FLAVOUR_DISPLAY_NAMES, CLI_FLAVOUR_PACKAGES, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { installCommandOf } from '@theia-cli-companion/cli-process/lib/common';
import { findExecutable } from '@theia-cli-companion/cli-process/lib/node';
import type { WindowLogger } from '@theia-cli-companion/ide-companion-server/lib/node';
import type { CompanionSettings } from './companion-settings';

/**
 * "Run Gemini CLI" / "Run Qwen Code" / "Run Claude Code": a terminal of this window (so it carries
 * the window's variables) in the folder, running the command from the user's settings only. In a
 * folder the user does not trust it asks first (the CLI reads the folder's own settings); a CLI that
 * is not installed gets its install command instead of a shell error.
 */
export class CliLauncher {
    constructor(protected readonly settings: CompanionSettings, protected readonly logger: WindowLogger) { }

    async run(flavour: CliFlavourId): Promise<vscode.Terminal | undefined> {
        const name = CLI_FLAVOUR_DISPLAY_NAMES[flavour];
        if (!vscode.workspace.isTrusted && !await this.confirmUntrusted(name)) {
            return undefined;
        }
        const commandLine = this.settings.commandLine(flavour);
        const executable = await findExecutable(commandLine[0]);
        if (!executable && !await this.offerInstall(flavour, commandLine[0])) {
            return undefined;
        }
        const folder = await this.pickFolder(name);
        if (folder === 'cancelled') {
            return undefined;
        }
        if (!this.settings.flavours.includes(flavour)) {
            this.logger.warn(`IDE mode for ${name} is turned off in the settings: it runs without a connection to this window`);
        }
        const terminal = vscode.window.createTerminal({ name: folder ? `${name} — ${path.basename(folder.fsPath)}` : name, cwd: folder });
        terminal.show();
        terminal.sendText(quote(commandLine));
        this.logger.info(`Started ${name} (${executable ?? commandLine[0]}) in a terminal in ${folder?.fsPath ?? 'no folder'}`);
        return terminal;
    }

    protected async confirmUntrusted(name: string): Promise<boolean> {
        const run = vscode.l10n.t('Run Anyway');
        const answer = await vscode.window.showWarningMessage(
            vscode.l10n.t('This folder is not trusted. {0} reads the folder\'s own settings, which may tell it to run programs. Run it anyway?', name),
            { modal: true }, run);
        return answer === run;
    }

    /** Returns whether to run anyway (the shell may find it where we do not). */
    protected async offerInstall(flavour: CliFlavourId, command: string): Promise<boolean> {
        const name = CLI_FLAVOUR_DISPLAY_NAMES[flavour];
        const install = installCommandOf(CLI_FLAVOUR_PACKAGES[flavour]);
        this.logger.warn(`${name} is not installed: "${command}" is not on the PATH of this IDE's terminals`);
        const installInTerminal = vscode.l10n.t('Install in Terminal');
        const copy = vscode.l10n.t('Copy Command');
        const runAnyway = vscode.l10n.t('Run Anyway');
        const answer = await vscode.window.showWarningMessage(
            vscode.l10n.t('{0} is not installed: "{1}" is not on the PATH of this IDE\'s terminals. Install it with: {2}', name, command, install),
            installInTerminal, copy, runAnyway);
        if (answer === installInTerminal) {
            const terminal = vscode.window.createTerminal({ name: vscode.l10n.t('Install {0}', name) });
            terminal.show();
            terminal.sendText(install);
        } else if (answer === copy) {
            await vscode.env.clipboard.writeText(install);
        }
        return answer === runAnyway;
    }

    protected async pickFolder(name: string): Promise<vscode.Uri | undefined | 'cancelled'> {
        const folders = (vscode.workspace.workspaceFolders ?? []).filter(folder => folder.uri.scheme === 'file');
        if (folders.length <= 1) {
            return folders[0]?.uri;
        }
        const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('The folder to run {0} in', name) });
        return picked ? picked.uri : 'cancelled';
    }
}
