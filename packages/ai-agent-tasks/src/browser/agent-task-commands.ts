import { Command } from '@theia/core/lib/common/command';

const CATEGORY = 'CLI Companion';
const CATEGORY_KEY = 'theia-cli-companion/ide-companion/category';

export namespace AgentTaskCommands {
    export const RUN_GEMINI_TASK = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.runGeminiTask', category: CATEGORY, label: 'Run Gemini Task…', iconClass: 'codicon codicon-play' },
        'theia-cli-companion/agent-tasks/runGeminiTask', CATEGORY_KEY);
    export const SHOW_AGENT_TASKS = Command.toLocalizedCommand(
        { id: 'aiCliCompanion.showAgentTasks', category: CATEGORY, label: 'Show Agent Tasks' }, 'theia-cli-companion/agent-tasks/showAgentTasks', CATEGORY_KEY);
}
