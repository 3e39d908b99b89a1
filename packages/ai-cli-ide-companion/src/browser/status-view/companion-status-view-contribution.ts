import { injectable } from '@theia/core/shared/inversify';
import { AbstractViewContribution } from '@theia/core/lib/browser/shell/view-contribution';
import { CommandRegistry } from '@theia/core/lib/common/command';
import { CompanionCommands } from '../companion-commands';
import { CompanionStatusWidget } from './companion-status-widget';

/** Opens the status view in the main area with "CLI Companion: Show Status". */
@injectable()
export class CompanionStatusViewContribution extends AbstractViewContribution<CompanionStatusWidget> {
    constructor() {
        super({
            widgetId: CompanionStatusWidget.ID,
            widgetName: CompanionStatusWidget.LABEL,
            defaultWidgetOptions: { area: 'main' }
        });
    }

    override registerCommands(commands: CommandRegistry): void {
        commands.registerCommand(CompanionCommands.SHOW_STATUS, { execute: () => this.openView({ activate: true, reveal: true }) });
    }
}
