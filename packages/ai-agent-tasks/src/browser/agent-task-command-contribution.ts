import { inject, injectable } from '@theia/core/shared/inversify';
import { CommandContribution, CommandRegistry, CommandService } from '@theia/core/lib/common/command';
import { AgentTaskCommands } from './agent-task-commands';
import { AgentTaskLauncher } from './agent-task-launcher';

/** "CLI Companion: Run Gemini Task…": asks, starts, and shows the task in the Agent Tasks view. */
@injectable()
export class AgentTaskCommandContribution implements CommandContribution {
    @inject(AgentTaskLauncher) protected readonly launcher: AgentTaskLauncher;
    @inject(CommandService) protected readonly commandService: CommandService;

    registerCommands(registry: CommandRegistry): void {
        registry.registerCommand(AgentTaskCommands.RUN_GEMINI_TASK, {
            execute: async () => {
                const task = await this.launcher.run();
                if (task) {
                    await this.commandService.executeCommand(AgentTaskCommands.SHOW_AGENT_TASKS.id);
                }
                return task;
            }
        });
    }
}
