import { injectable } from '@theia/core/shared/inversify';
import { MenuContribution, MenuModelRegistry } from '@theia/core/lib/common/menu';
import { EDITOR_CONTEXT_MENU } from '@theia/editor/lib/browser/editor-menu';
import { NAVIGATOR_CONTEXT_MENU } from '@theia/navigator/lib/browser/navigator-contribution';
import { CompanionCommands } from './companion-commands';

/** The CLI Companion's items in the editor's and the file explorer's context menus. */
@injectable()
export class CompanionMenuContribution implements MenuContribution {
    registerMenus(menus: MenuModelRegistry): void {
        const item = { commandId: CompanionCommands.SEND_TO_CLAUDE.id, label: CompanionCommands.SEND_TO_CLAUDE.label };
        menus.registerMenuAction([...EDITOR_CONTEXT_MENU, 'z_cli_companion'], item);
        menus.registerMenuAction([...NAVIGATOR_CONTEXT_MENU, 'z_cli_companion'], item);
    }
}
