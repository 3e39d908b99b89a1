import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { CommandService } from '@theia/core/lib/common/command';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { AgentTaskCommands } from './agent-task-commands';
import { AgentTaskLauncher } from './agent-task-launcher';
import { AgentTaskService, AgentTaskTransition, isTaskActive } from './agent-task-service';

/** Tells the user, wherever they are in the IDE, when a task they watched ends or cannot reach the model. */
@injectable()
export class AgentTaskNotifications implements FrontendApplicationContribution {
    @inject(AgentTaskService) protected readonly tasks: AgentTaskService;
    @inject(AgentTaskLauncher) protected readonly launcher: AgentTaskLauncher;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(CommandService) protected readonly commands: CommandService;

    /** Tasks already told about network trouble: once per task is enough. */
    protected readonly toldRetrying = new Set<string>();

    onStart(): void {
        this.tasks.onDidTransition(transition => this.notify(transition));
    }

    protected async notify({ task, from }: AgentTaskTransition): Promise<void> {
        const summary = task.summary;
        const name = summary.request.prompt.split('\n')[0].slice(0, 60);
        const show = nls.localize('theia-cli-companion/agent-tasks/show', 'Show');
        if (summary.retry && isTaskActive(summary) && !this.toldRetrying.has(summary.id)) {
            this.toldRetrying.add(summary.id);
            const cancel = nls.localize('theia-cli-companion/agent-tasks/cancelTask', 'Cancel Task');
            const answer = await this.messages.warn(nls.localize('theia-cli-companion/agent-tasks/retryingToast',
                'Agent task "{0}": Gemini CLI cannot reach the model and keeps retrying ({1}).', name, summary.retry.reason), cancel, show);
            if (answer === cancel) {
                await this.tasks.cancel(summary.id);
            } else if (answer === show) {
                await this.commands.executeCommand(AgentTaskCommands.SHOW_AGENT_TASKS.id);
            }
            return;
        }
        if (!from || !isTaskActive(from) || isTaskActive(summary) || summary.state === 'cancelled') {
            return;
        }
        let answer: string | undefined;
        if (summary.state === 'succeeded') {
            const changed = summary.changes.state === 'ready' ? summary.changes.files.length : 0;
            answer = await this.messages.info(changed === 0
                ? nls.localize('theia-cli-companion/agent-tasks/finishedNoChanges', 'Agent task "{0}" finished without changing files.', name)
                : changed === 1
                    ? nls.localize('theia-cli-companion/agent-tasks/finishedOneChange', 'Agent task "{0}" finished: 1 changed file to review.', name)
                    : nls.localize('theia-cli-companion/agent-tasks/finishedToast', 'Agent task "{0}" finished: {1} changed files to review.', name, String(changed)), show);
        } else if (summary.state === 'untrusted-folder') {
            const trust = nls.localize('theia-cli-companion/agent-tasks/runTrusted', 'Run Again Trusting This Folder');
            answer = await this.messages.warn(`${name}: ${summary.outcomeMessage}`, trust, show);
            if (answer === trust) {
                await this.launcher.start({ ...summary.request, skipTrust: true });
            }
        } else {
            answer = await this.messages.error(`${name}: ${summary.outcomeMessage}`, show);
        }
        if (answer === show) {
            await this.commands.executeCommand(AgentTaskCommands.SHOW_AGENT_TASKS.id);
        }
    }
}
