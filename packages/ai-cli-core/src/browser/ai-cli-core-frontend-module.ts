import { ContainerModule } from '@theia/core/shared/inversify';
import { ResourceResolver } from '@theia/core/lib/common/resource';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { CommandContribution } from '@theia/core/lib/common/command';
import { KeybindingContribution } from '@theia/core/lib/browser/keybinding';
import { TabBarToolbarContribution } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { bindViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { IdeCompanionBackend, ideCompanionServicePath } from '../common/ide-companion-protocol';
import { StorageUsageService, storageUsageServicePath } from '../common/storage-usage-protocol';
import { bindIdeCompanionPreferences } from '../common/ide-companion-preferences';
import { DiffReviewContribution } from './diff-review/diff-review-contribution';
import { DiffReviewService } from './diff-review/diff-review-service';
import { CliDiffRequests } from './diff-review/cli-diff-requests';
import { AppliedChanges } from './diff-review/applied-changes';
import { OverwriteCheck } from './diff-review/overwrite-check';
import { ReviewEditors } from './diff-review/review-editors';
import { ReviewedTexts } from './diff-review/reviewed-texts';
import { OverwriteConfirmation, OverwriteConfirmationDialog } from './diff-review/overwrite-confirmation';
import { ProposedContentResourceResolver } from './diff-review/proposed-content-resource-resolver';
import { EditorContextTracker } from './editor-context-tracker';
import { CliDiffRequestsProvider, WindowEditorClientImpl, IdeToolsHandler } from './window-editor-client-impl';
import { WindowServerService } from './window-server-service';
import { WindowIdeTools } from './window-ide-tools';
import { CompanionOutput } from './companion-output';
import { CompanionLog } from './companion-log';
import { MonacoTextModels } from './monaco-text-models';
import { TextModels } from './text-models';
import { ReviewDiffRegistry } from './review-changes/review-diff-registry';
import { ReviewChangeEditors } from './review-changes/review-change-editor';
import { MonacoReviewChangeEditors } from './review-changes/monaco-review-change-editors';
import { ReviewChangeService } from './review-changes/review-change-service';
import { ReviewChangeCommandContribution } from './review-changes/review-change-command-contribution';
import { ReviewChangeKeybindingContribution } from './review-changes/review-change-keybinding-contribution';
import { ChangeToolbarContribution } from './review-changes/change-toolbar-contribution';
import { PendingReviewWidget } from './pending-review/pending-review-widget';
import { PendingReviewSource } from './pending-review/pending-review-source';
import { StatusViewSection } from './status-view/status-view-section';
import { bindKeepAwake } from './keep-awake/keep-awake-bindings';
import { PendingReviewViewContribution } from './pending-review/pending-review-view-contribution';
import { ReviewPaceSettings } from './diff-review/review-pace-settings';
import { ReviewPaceCommandContribution } from './pending-review/review-pace-command-contribution';
import { ExecutionSettings } from './untrusted-workspace/execution-settings';
import { SnapshotIncludeSettings } from './snapshots/snapshot-include-settings';
import { WorkspaceTrustGate } from './untrusted-workspace/workspace-trust-gate';

/**
 * The window's side of its companion: the connection to the backend's window server, the editor
 * state it streams, the IDE tools it answers and the diff review. The UI that offers IDE mode to
 * the CLIs (status, commands, terminals) comes with ai-cli-ide-companion.
 */
export default new ContainerModule(bind => {
    bind(WindowEditorClientImpl).toSelf().inSingletonScope();
    bind(IdeCompanionBackend).toDynamicValue(ctx =>
        ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider)
            .createProxy<IdeCompanionBackend>(ideCompanionServicePath, ctx.container.get(WindowEditorClientImpl))
    ).inSingletonScope();
    bind(WindowServerService).toSelf().inSingletonScope();
    bind(StorageUsageService).toDynamicValue(ctx =>
        ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider).createProxy<StorageUsageService>(storageUsageServicePath)
    ).inSingletonScope();

    bindIdeCompanionPreferences(bind);
    bind(CompanionOutput).toSelf().inSingletonScope();
    bind(CompanionLog).toService(CompanionOutput);
    bind(TextModels).to(MonacoTextModels).inSingletonScope();
    bind(ExecutionSettings).toSelf().inSingletonScope();
    bind(SnapshotIncludeSettings).toSelf().inSingletonScope();
    bind(WorkspaceTrustGate).toSelf().inSingletonScope();

    bind(EditorContextTracker).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(EditorContextTracker);

    bind(ProposedContentResourceResolver).toSelf().inSingletonScope();
    bind(ResourceResolver).toService(ProposedContentResourceResolver);
    bind(OverwriteConfirmation).to(OverwriteConfirmationDialog).inSingletonScope();
    bind(ReviewEditors).toSelf().inSingletonScope();
    bind(ReviewedTexts).toSelf().inSingletonScope();
    bind(OverwriteCheck).toSelf().inSingletonScope();
    bind(AppliedChanges).toSelf().inSingletonScope();
    bind(ReviewPaceSettings).toSelf().inSingletonScope();
    bind(DiffReviewService).toSelf().inSingletonScope();
    bind(CliDiffRequests).toSelf().inSingletonScope();
    bind(CliDiffRequestsProvider).toFactory(ctx => () => ctx.container.get(CliDiffRequests));
    bind(WindowIdeTools).toSelf().inSingletonScope();
    bind(IdeToolsHandler).toService(WindowIdeTools);
    bind(DiffReviewContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(DiffReviewContribution);
    bind(TabBarToolbarContribution).toService(DiffReviewContribution);
    bind(KeybindingContribution).toService(DiffReviewContribution);

    bind(ReviewDiffRegistry).toSelf().inSingletonScope();
    bind(ReviewChangeEditors).to(MonacoReviewChangeEditors).inSingletonScope();
    bind(ReviewChangeService).toSelf().inSingletonScope();
    bind(ReviewChangeCommandContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(ReviewChangeCommandContribution);
    bind(ReviewChangeKeybindingContribution).toSelf().inSingletonScope();
    bind(KeybindingContribution).toService(ReviewChangeKeybindingContribution);
    bind(ChangeToolbarContribution).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(ChangeToolbarContribution);

    bindContributionProvider(bind, PendingReviewSource);
    bindContributionProvider(bind, StatusViewSection);
    bind(PendingReviewWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({ id: PendingReviewWidget.ID, createWidget: () => ctx.container.get(PendingReviewWidget) })).inSingletonScope();
    bindViewContribution(bind, PendingReviewViewContribution);
    bind(ReviewPaceCommandContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(ReviewPaceCommandContribution);
    bindKeepAwake(bind);
});
