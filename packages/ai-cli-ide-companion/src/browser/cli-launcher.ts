import { inject, injectable } from '@theia/core/shared/inversify';
import { ClipboardService } from '@theia/core/lib/browser/clipboard-service';
import { QuickInputService } from '@theia/core/lib/browser/quick-input/quick-input-service';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { TerminalService } from '@theia/terminal/lib/browser/base/terminal-service';
import { TerminalWidget } from '@theia/terminal/lib/browser/base/terminal-widget';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { CLI_FLAVOUR_DISPLAY_NAMES, CLI_FLAVOUR_PACKAGES, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { installCommandOf } from '@theia-cli-companion/cli-process/lib/common';
import { IdeCompanionBackend, flavourPreference } from '@theia-cli-companion/ai-cli-core/lib/common';
import { cliCommandLine } from '@theia-cli-companion/ide-companion-server/lib/common';
import { CompanionOutput, ExecutionSettings, WindowServerService, WorkspaceTrustGate } from '@theia-cli-companion/ai-cli-core/lib/browser';

/**
 * "Run Gemini CLI" / "Run Qwen Code" / "Run Claude Code", in a trusted workspace only, with the command
 * from the user's settings only: a terminal of this window (so it carries the window's
 * variables), named after the CLI and the folder, in that folder, running the CLI. A CLI that is not
 * installed gets its install command instead of a shell error.
 */
@injectable()
export class CliLauncher {

    @inject(TerminalService) protected readonly terminals: TerminalService;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(ClipboardService) protected readonly clipboard: ClipboardService;
    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(WorkspaceTrustGate) protected readonly trustGate: WorkspaceTrustGate;
    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(WindowServerService) protected readonly companion: WindowServerService;
    @inject(CompanionOutput) protected readonly output: CompanionOutput;

    async run(flavour: CliFlavourId): Promise<TerminalWidget | undefined> {
        const name = CLI_FLAVOUR_DISPLAY_NAMES[flavour];
        if (!await this.trustGate.mayStart(name)) {
            return undefined;
        }
        const commandLine = cliCommandLine(flavour,
            this.settings.get(flavourPreference(flavour, 'command')), this.settings.get(flavourPreference(flavour, 'args')));
        const executable = await this.backend.findExecutable(commandLine[0]);
        if (!executable && !await this.offerInstall(flavour, commandLine[0])) {
            return undefined;
        }
        const folder = await this.pickFolder(name);
        if (folder === 'cancelled') {
            return undefined;
        }
        if (!this.companion.enabledFlavours().includes(flavour)) {
            this.output.warn(nls.localize('theia-cli-companion/ide-companion/runWithoutIdeMode',
                'IDE mode for {0} is turned off in the preferences: it runs without a connection to this window.', name));
        }
        const title = folder ? `${name} — ${folder.path.base}` : name;
        const terminal = await this.terminals.newTerminal({ title, cwd: folder?.toString(), useServerTitle: false });
        await terminal.start();
        void this.terminals.open(terminal, { mode: 'activate' });
        // The terminal already starts in the folder: no `cd` in front of the command the user sees.
        await terminal.executeCommand({ cwd: '', args: commandLine });
        this.output.info(nls.localize('theia-cli-companion/ide-companion/ranCli', 'Started {0} ({1}) in a terminal in {2}',
            name, executable ?? commandLine[0], folder?.path.fsPath() ?? nls.localize('theia-cli-companion/ide-companion/noFolder', 'no folder')));
        return terminal;
    }

    /** Returns whether to run anyway (the user knows better: the shell may find it where we do not). */
    protected async offerInstall(flavour: CliFlavourId, command: string): Promise<boolean> {
        const name = CLI_FLAVOUR_DISPLAY_NAMES[flavour];
        const install = installCommandOf(CLI_FLAVOUR_PACKAGES[flavour]);
        this.output.warn(nls.localize('theia-cli-companion/ide-companion/cliMissingLog', '{0} is not installed: "{1}" is not on the PATH of this IDE\'s terminals', name, command));
        const installInTerminal = nls.localize('theia-cli-companion/ide-companion/installInTerminal', 'Install in Terminal');
        const copy = nls.localize('theia-cli-companion/ide-companion/copyInstall', 'Copy Command');
        const runAnyway = nls.localize('theia-cli-companion/ide-companion/runAnyway', 'Run Anyway');
        const answer = await this.messages.warn(nls.localize('theia-cli-companion/ide-companion/cliMissing',
            '{0} is not installed: "{1}" is not on the PATH of this IDE\'s terminals. Install it with: {2}', name, command, install),
        installInTerminal, copy, runAnyway);
        if (answer === installInTerminal) {
            const terminal = await this.terminals.newTerminal({
                title: nls.localize('theia-cli-companion/ide-companion/installTitle', 'Install {0}', name),
                useServerTitle: false
            });
            await terminal.start();
            void this.terminals.open(terminal, { mode: 'activate' });
            terminal.sendText(`${install}\r`);
        } else if (answer === copy) {
            await this.clipboard.writeText(install);
        }
        return answer === runAnyway;
    }

    /** The only workspace folder, the one the user picks among several, or none when no folder is open. */
    protected async pickFolder(name: string): Promise<URI | undefined | 'cancelled'> {
        const roots = (await this.workspace.roots).filter(root => root.resource.scheme === 'file');
        if (roots.length <= 1) {
            return roots[0]?.resource;
        }
        const picked = await this.quickInput.showQuickPick(
            roots.map(root => ({ label: root.resource.path.base, description: root.resource.path.fsPath(), value: root.resource })),
            { placeholder: nls.localize('theia-cli-companion/ide-companion/pickFolder', 'The folder to run {0} in', name) });
        return picked ? picked.value : 'cancelled';
    }
}
