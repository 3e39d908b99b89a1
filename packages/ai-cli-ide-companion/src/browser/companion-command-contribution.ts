import { inject, injectable } from '@theia/core/shared/inversify';
import { ClipboardService } from '@theia/core/lib/browser/clipboard-service';
import { CommonCommands } from '@theia/core/lib/browser/common-commands';
import { QuickInputService, QuickPickItem } from '@theia/core/lib/browser/quick-input/quick-input-service';
import { Command, CommandContribution, CommandRegistry, CommandService } from '@theia/core/lib/common/command';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { CLI_FLAVOUR_IDS } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { COMPANION_ENABLED_PREF } from '@theia-cli-companion/ai-cli-core/lib/common';
import { CliLauncher } from './cli-launcher';
import { CompanionCommands } from './companion-commands';
import { CompanionOutput, WindowServerService, PendingReviewCommands } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { DiagnosticReportService } from './diagnostic-report-service';

/** The CLI Companion commands: run a CLI, the menu behind the status bar item, log, report, settings, on/off. */
@injectable()
export class CompanionCommandContribution implements CommandContribution {

    @inject(CliLauncher) protected readonly launcher: CliLauncher;
    @inject(CompanionOutput) protected readonly output: CompanionOutput;
    @inject(DiagnosticReportService) protected readonly diagnostics: DiagnosticReportService;
    @inject(ClipboardService) protected readonly clipboard: ClipboardService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(CommandService) protected readonly commandService: CommandService;
    @inject(PreferenceService) protected readonly preferences: PreferenceService;
    @inject(WindowServerService) protected readonly companion: WindowServerService;

    registerCommands(registry: CommandRegistry): void {
        for (const flavour of CLI_FLAVOUR_IDS) {
            registry.registerCommand(CompanionCommands.RUN[flavour], { execute: () => this.launcher.run(flavour) });
        }
        registry.registerCommand(CompanionCommands.SHOW_LOG, { execute: () => this.output.show() });
        registry.registerCommand(CompanionCommands.COPY_DIAGNOSTICS, { execute: () => this.copyDiagnostics() });
        registry.registerCommand(CompanionCommands.OPEN_SETTINGS, {
            // Apps without @theia/preferences have no settings editor to open.
            isEnabled: () => !!registry.getCommand(CommonCommands.OPEN_PREFERENCES.id),
            execute: () => this.commandService.executeCommand(CommonCommands.OPEN_PREFERENCES.id, 'aiCliCompanion')
        });
        registry.registerCommand(CompanionCommands.TURN_ON, {
            isEnabled: () => this.companion.state.kind === 'disabled' || this.companion.state.kind === 'failed',
            execute: () => this.turnOn()
        });
        registry.registerCommand(CompanionCommands.TURN_OFF, {
            isEnabled: () => this.companion.state.kind === 'running',
            execute: () => this.preferences.set(COMPANION_ENABLED_PREF, false, PreferenceScope.User)
        });
        registry.registerCommand(CompanionCommands.SHOW_MENU, { execute: () => this.showMenu(registry) });
    }

    protected async turnOn(): Promise<void> {
        if (this.preferences.get(COMPANION_ENABLED_PREF) === false) {
            await this.preferences.set(COMPANION_ENABLED_PREF, true, PreferenceScope.User);
        } else {
            await this.companion.restart();
        }
    }

    protected async copyDiagnostics(): Promise<string> {
        const report = await this.diagnostics.build();
        await this.clipboard.writeText(report);
        this.messages.info(nls.localize('theia-cli-companion/ide-companion/reportCopied',
            'The CLI Companion diagnostic report is on the clipboard. It contains no token, but it does contain paths: read it before you share it.'));
        return report;
    }

    /** The status bar item's menu: everything the companion offers, the ones that apply now. */
    protected async showMenu(registry: CommandRegistry): Promise<void> {
        const commands: Command[] = [
            CompanionCommands.SHOW_STATUS,
            PendingReviewCommands.SHOW_PENDING_CHANGES,
            PendingReviewCommands.ACCEPT_ALL_DIFFS,
            PendingReviewCommands.REJECT_ALL_DIFFS,
            PendingReviewCommands.SET_REVIEW_PACE,
            ...CLI_FLAVOUR_IDS.map(flavour => CompanionCommands.RUN[flavour]),
            CompanionCommands.SHOW_LOG,
            CompanionCommands.COPY_DIAGNOSTICS,
            CompanionCommands.OPEN_SETTINGS,
            CompanionCommands.TURN_ON,
            CompanionCommands.TURN_OFF
        ].filter(command => registry.isEnabled(command.id));
        const items: (QuickPickItem & { command: Command })[] = commands.map(command => ({ label: command.label!, command }));
        const picked = await this.quickInput.showQuickPick(items, { placeholder: nls.localize('theia-cli-companion/ide-companion/menuPlaceholder', 'CLI Companion') });
        if (picked) {
            await this.commandService.executeCommand(picked.command.id);
        }
    }
}
