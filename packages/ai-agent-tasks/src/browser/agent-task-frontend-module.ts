import { ContainerModule } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { WidgetFactory } from '@theia/core/lib/browser/widget-manager';
import { bindViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import { RemoteConnectionProvider, ServiceConnectionProvider } from '@theia/core/lib/browser/messaging/service-connection-provider';
import { CommandContribution } from '@theia/core/lib/common/command';
import { MenuContribution } from '@theia/core/lib/common/menu';
import { ResourceResolver } from '@theia/core/lib/common/resource';
import { AgentTaskBackend, agentTaskServicePath } from '../common/agent-task-protocol';
import { bindAgentTaskPreferences } from '../common/agent-task-preferences';
import { AgentTaskBaselineResourceResolver } from './agent-task-baseline-resource-resolver';
import { AgentTaskClientImpl } from './agent-task-client-impl';
import { AgentTaskCommandContribution } from './agent-task-command-contribution';
import { AgentTaskLauncher } from './agent-task-launcher';
import { AgentTaskMenuContribution } from './agent-task-menu-contribution';
import { AgentTaskNotifications } from './agent-task-notifications';
import { AgentTaskReview } from './agent-task-review';
import { AgentTaskReviewSource } from './agent-task-review-source';
import { PendingReviewSource } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { AgentTaskService } from './agent-task-service';
import { AgentTasksViewContribution } from './agent-tasks-view-contribution';
import { AgentTasksWidget } from './agent-tasks-widget';

export default new ContainerModule(bind => {
    bindAgentTaskPreferences(bind);
    bind(AgentTaskClientImpl).toSelf().inSingletonScope();
    bind(AgentTaskService).toSelf().inSingletonScope();
    bind(AgentTaskBackend).toDynamicValue(ctx =>
        ctx.container.get<ServiceConnectionProvider>(RemoteConnectionProvider).createProxy<AgentTaskBackend>(agentTaskServicePath, ctx.container.get(AgentTaskClientImpl))
    ).inSingletonScope();
    bind(AgentTaskLauncher).toSelf().inSingletonScope();
    bind(AgentTaskReview).toSelf().inSingletonScope();
    bind(AgentTaskReviewSource).toSelf().inSingletonScope();
    bind(PendingReviewSource).toService(AgentTaskReviewSource);
    bind(AgentTaskBaselineResourceResolver).toSelf().inSingletonScope();
    bind(ResourceResolver).toService(AgentTaskBaselineResourceResolver);
    bind(AgentTaskCommandContribution).toSelf().inSingletonScope();
    bind(CommandContribution).toService(AgentTaskCommandContribution);
    bind(AgentTaskMenuContribution).toSelf().inSingletonScope();
    bind(MenuContribution).toService(AgentTaskMenuContribution);
    bind(AgentTaskNotifications).toSelf().inSingletonScope();
    bind(FrontendApplicationContribution).toService(AgentTaskNotifications);
    bind(AgentTasksWidget).toSelf();
    bind(WidgetFactory).toDynamicValue(ctx => ({
        id: AgentTasksWidget.ID,
        createWidget: () => ctx.container.get(AgentTasksWidget)
    })).inSingletonScope();
    bindViewContribution(bind, AgentTasksViewContribution);
});
