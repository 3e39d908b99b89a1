import { inject, injectable, named, postConstruct } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { nls } from '@theia/core/lib/common/nls';
import { OutputChannelManager, OutputChannelSeverity } from '@theia/output/lib/browser/output-channel';
import { IdeCompanionBackend } from '../common/ide-companion-protocol';
import { WindowEvent } from '@theia-cli-companion/ide-companion-server/lib/common';
import { WindowEditorClientImpl } from './window-editor-client-impl';
import { WindowServerService } from './window-server-service';

export const COMPANION_OUTPUT_CHANNEL = 'CLI Companion';
/** Events remembered to skip the ones a re-attach fetches again. */
const REMEMBERED_EVENTS = 500;

/**
 * The "CLI Companion" output channel of this window: connections, diffs and errors from the window's
 * server, plus what the window itself did (runs, refusals). Never tokens, never file contents.
 */
@injectable()
export class CompanionOutput {

    @inject(OutputChannelManager) protected readonly outputChannels: OutputChannelManager;
    @inject(WindowEditorClientImpl) protected readonly client: WindowEditorClientImpl;
    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(WindowServerService) protected readonly companion: WindowServerService;
    @inject(ILogger) @named('ai-cli-core:CompanionOutput') protected readonly logger: ILogger;

    protected readonly shown = new Set<string>();
    protected readonly recentEvents: WindowEvent[] = [];

    @postConstruct()
    protected init(): void {
        this.client.onDidLog(event => this.append(event));
        // After a reload or a reconnect the channel is new: bring in what the server logged meanwhile.
        this.companion.onDidAttach(() => this.fetchRecentEvents());
        if (this.companion.status) {
            this.fetchRecentEvents();
        }
    }

    protected fetchRecentEvents(): void {
        this.backend.getRecentEvents()
            .then(events => events.forEach(event => this.append(event)))
            .catch(error => this.logger.warn(`Could not read the companion's recent events: ${error}`));
    }

    /** What this window showed, oldest first, for the diagnostic report. */
    get events(): readonly WindowEvent[] {
        return this.recentEvents;
    }

    info(message: string): void {
        this.append({ time: Date.now(), level: 'info', message });
    }

    warn(message: string): void {
        this.append({ time: Date.now(), level: 'warn', message });
    }

    error(message: string): void {
        this.append({ time: Date.now(), level: 'error', message });
    }

    show(): void {
        this.outputChannels.getChannel(COMPANION_OUTPUT_CHANNEL).show({ preserveFocus: false });
    }

    protected append(event: WindowEvent): void {
        const key = `${event.time}|${event.level}|${event.message}`;
        if (this.shown.has(key)) {
            return;
        }
        this.shown.add(key);
        this.recentEvents.push(event);
        if (this.recentEvents.length > REMEMBERED_EVENTS) {
            const [dropped] = this.recentEvents.splice(0, 1);
            this.shown.delete(`${dropped.time}|${dropped.level}|${dropped.message}`);
        }
        const severity = event.level === 'error' ? OutputChannelSeverity.Error : event.level === 'warn' ? OutputChannelSeverity.Warning : OutputChannelSeverity.Info;
        this.outputChannels.getChannel(COMPANION_OUTPUT_CHANNEL).appendLine(formatEvent(event), severity);
    }
}

export function formatEvent(event: WindowEvent): string {
    const level = event.level === 'info' ? nls.localizeByDefault('Info') : event.level === 'warn' ? nls.localizeByDefault('Warning') : nls.localizeByDefault('Error');
    return `[${new Date(event.time).toISOString()}] [${level}] ${event.message}`;
}
