import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { TerminalService } from '@theia/terminal/lib/browser/base/terminal-service';

/** Shows an agent's command in a real terminal widget of the window, attached to its backend process. */
@injectable()
export class AcpTerminalPresenter {

    @inject(TerminalService) protected readonly terminals: TerminalService;
    @inject(ILogger) @named('ai-acp-chat:AcpTerminalPresenter') protected readonly logger: ILogger;

    async show(terminal: { terminalId: string; processId: number; title: string }): Promise<void> {
        try {
            const widget = await this.terminals.newTerminal({ title: terminal.title, id: terminal.terminalId, destroyTermOnClose: true, useServerTitle: false });
            await widget.start(terminal.processId);
            // Reveal, do not activate: the user keeps typing where they were.
            await this.terminals.open(widget, { mode: 'reveal' });
        } catch (error) {
            this.logger.warn(`Could not show the agent's terminal ${terminal.terminalId}: ${error}`);
        }
    }
}
