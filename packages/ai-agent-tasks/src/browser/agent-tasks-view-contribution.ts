import { injectable } from '@theia/core/shared/inversify';
import { AbstractViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import { CommandRegistry } from '@theia/core/lib/common/command';
import { AgentTaskCommands } from './agent-task-commands';
import { AgentTasksWidget } from './agent-tasks-widget';

/** The "Agent Tasks" view in the left side panel, and "CLI Companion: Show Agent Tasks". */
@injectable()
export class AgentTasksViewContribution extends AbstractViewContribution<AgentTasksWidget> {
    constructor() {
        super({
            widgetId: AgentTasksWidget.ID,
            widgetName: AgentTasksWidget.LABEL,
            defaultWidgetOptions: { area: 'left', rank: 700 }
        });
    }

    override registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(AgentTaskCommands.SHOW_AGENT_TASKS, { execute: () => this.openView({ activate: true, reveal: true }) });
    }
}
