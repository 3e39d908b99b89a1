import { injectable } from '@theia/core/shared/inversify';
import { MenuContribution, MenuModelRegistry } from '@theia/core/lib/common/menu';
import { EDITOR_CONTEXT_MENU } from '@theia/editor/lib/browser/editor-menu';
import { AgentTaskCommands } from './agent-task-commands';

/** "Run Gemini Task…" in the editor's context menu: the selection becomes the task's context. */
@injectable()
export class AgentTaskMenuContribution implements MenuContribution {
    registerMenus(menus: MenuModelRegistry): void {
        // A group of its own at the end, like the other CLI Companion items.
        menus.registerMenuAction([...EDITOR_CONTEXT_MENU, 'z_cli_companion'], {
            commandId: AgentTaskCommands.RUN_GEMINI_TASK.id,
            label: AgentTaskCommands.RUN_GEMINI_TASK.label
        });
    }
}
