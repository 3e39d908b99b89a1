import { ContainerModule } from '@theia/core/shared/inversify';
import { CommandContribution } from '@theia/core/lib/common/command';
import { MenuContribution } from '@theia/core/lib/common/menu';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { bindViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { ShellTerminalServerProxy } from '@theia/terminal/lib/common/shell-terminal-protocol';
import { TaskServer } from '@theia/task/lib/common/task-protocol';
import { WindowServerService } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { ClaudeMentionContribution } from './claude-mention-contribution';
import { CliLauncher } from './cli-launcher';
import { CompanionCommandContribution } from './companion-command-contribution';
import { CompanionMenuContribution } from './companion-menu-contribution';
import { DiagnosticReportService } from './diagnostic-report-service';
import { IdeCompanionStatusBarContribution } from './ide-companion-status-bar-contribution';
import { CompanionStatusViewContribution } from './status-view/companion-status-view-contribution';
import { CompanionStatusWidget } from './status-view/companion-status-widget';
import { injectTaskEnvironment, injectTerminalEnvironment } from './terminal-environment-injection';
import { UnavailableFlavourNotifier } from './unavailable-flavour-notifier';

/** IDE mode for the CLIs in this window: its terminals' variables, status, commands and "Run" launcher. */
export default new ContainerModule((bind, _unbind, _isBound, _rebind, _unbindAsync, onActivation) => {
    bind(CliLauncher).toSelf().inSingletonScope();
    bind(ClaudeMentionContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(ClaudeMentionContribution);
    bind(CompanionMenuContribution).toSelf().inSingletonScope();
    bind(MenuContribution).toService(CompanionMenuContribution);
    bind(DiagnosticReportService).toSelf().inSingletonScope();
    bind(CompanionCommandContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(CompanionCommandContribution);

    bind(CompanionStatusWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: CompanionStatusWidget.ID,
        createWidget: () => ctx.container.get(CompanionStatusWidget)
    })).inSingletonScope();
    bindViewContribution(bind, CompanionStatusViewContribution);

    bind(IdeCompanionStatusBarContribution).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(IdeCompanionStatusBarContribution);
    bind(UnavailableFlavourNotifier).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(UnavailableFlavourNotifier);

    onActivation<ShellTerminalServerProxy>(ShellTerminalServerProxy, (ctx, proxy) => {
        const companion = ctx.container.get(WindowServerService);
        return injectTerminalEnvironment(proxy, () => companion.terminalEnvironment());
    });
    onActivation<TaskServer>(TaskServer, (ctx, server) => {
        const companion = ctx.container.get(WindowServerService);
        return injectTaskEnvironment(server, () => companion.terminalEnvironment());
    });
});
