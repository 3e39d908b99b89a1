import { ContainerModule } from '@theia/core/shared/inversify';
import { ResourceResolver } from '@theia/core/lib/common/resource';
import { CommandContribution } from '@theia/core/lib/common/command';
import { MenuContribution } from '@theia/core/lib/common/menu';
import { ClaudeMentionContribution } from './claude-mention-contribution';
import { CompanionMenuContribution } from './companion-menu-contribution';
import { KeybindingContribution } from '@theia/core/lib/browser/keybinding';
import { TabBarToolbarContribution } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { DiffReviewContribution } from './diff-review/diff-review-contribution';
import { DiffReviewService } from './diff-review/diff-review-service';
import { OverwriteConfirmation, OverwriteConfirmationDialog } from './diff-review/overwrite-confirmation';
import { ProposedContentResourceResolver } from './diff-review/proposed-content-resource-resolver';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { ShellTerminalServerProxy } from '@theia/terminal/lib/common/shell-terminal-protocol';
import { TaskServer } from '@theia/task/lib/common/task-protocol';
import { IdeCompanionBackend, ideCompanionServicePath } from '../common/ide-companion-protocol';
import { bindIdeCompanionPreferences } from '../common/ide-companion-preferences';
import { EditorContextTracker } from './editor-context-tracker';
import { DiffRequestHandler, DiffRequestHandlerFactory, IdeCompanionFrontendClientImpl, IdeToolsHandler } from './ide-companion-frontend-client-impl';
import { IdeCompanionStatusBarContribution } from './ide-companion-status-bar-contribution';
import { injectTaskEnvironment, injectTerminalEnvironment } from './terminal-environment-injection';
import { WindowCompanionService } from './window-companion-service';
import { bindViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { CliLauncher } from './cli-launcher';
import { WindowIdeTools } from './window-ide-tools';
import { CompanionCommandContribution } from './companion-command-contribution';
import { CompanionOutput } from './companion-output';
import { CompanionLog } from './companion-log';
import { MonacoTextModels } from './monaco-text-models';
import { TextModels } from './text-models';
import { DiagnosticReportService } from './diagnostic-report-service';
import { CompanionStatusViewContribution } from './status-view/companion-status-view-contribution';
import { CompanionStatusWidget } from './status-view/companion-status-widget';

export default new ContainerModule((bind, _unbind, _isBound, _rebind, _unbindAsync, onActivation) => {
    bind(IdeCompanionFrontendClientImpl).toSelf().inSingletonScope();
    bind(IdeCompanionBackend).toDynamicValue(ctx =>
        ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider)
            .createProxy<IdeCompanionBackend>(ideCompanionServicePath, ctx.container.get(IdeCompanionFrontendClientImpl))
    ).inSingletonScope();
    bind(WindowCompanionService).toSelf().inSingletonScope();

    bindIdeCompanionPreferences(bind);
    bind(CompanionOutput).toSelf().inSingletonScope();
    bind(CompanionLog).toService(CompanionOutput);
    bind(TextModels).to(MonacoTextModels).inSingletonScope();
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

    bind(EditorContextTracker).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(EditorContextTracker);

    bind(ProposedContentResourceResolver).toSelf().inSingletonScope();
    bind(ResourceResolver).toService(ProposedContentResourceResolver);
    bind(OverwriteConfirmation).to(OverwriteConfirmationDialog).inSingletonScope();
    bind(DiffReviewService).toSelf().inSingletonScope();
    bind(DiffRequestHandler).toService(DiffReviewService);
    bind(DiffRequestHandlerFactory).toFactory(ctx => () => ctx.container.get<DiffRequestHandler>(DiffRequestHandler));
    bind(WindowIdeTools).toSelf().inSingletonScope();
    bind(IdeToolsHandler).toService(WindowIdeTools);
    bind(DiffReviewContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(DiffReviewContribution);
    bind(TabBarToolbarContribution).toService(DiffReviewContribution);
    bind(KeybindingContribution).toService(DiffReviewContribution);

    bind(IdeCompanionStatusBarContribution).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(IdeCompanionStatusBarContribution);

    onActivation<ShellTerminalServerProxy>(ShellTerminalServerProxy, (ctx, proxy) => {
        const companion = ctx.container.get(WindowCompanionService);
        return injectTerminalEnvironment(proxy, () => companion.terminalEnvironment());
    });
    onActivation<TaskServer>(TaskServer, (ctx, server) => {
        const companion = ctx.container.get(WindowCompanionService);
        return injectTaskEnvironment(server, () => companion.terminalEnvironment());
    });
});
