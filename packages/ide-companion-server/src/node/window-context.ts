import { inject, injectable } from 'inversify';
import type { IdeContext } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { WindowEditorClient } from '../common/window-protocol';
import { WindowServerOptions } from './window-server-options';
import { WindowEventLog } from './window-event-log';

/** What every part of one window's graph reads: its event log, folders, browser side and editor context. */
@injectable()
export class WindowContext {
    readonly log: WindowEventLog;
    /** Realpath'd workspace roots, as the CLIs compare them. */
    roots: readonly string[] = [];
    /** The editor context the window reported last; the IDE tools answer from it. */
    context?: IdeContext;
    /** The window's browser side, while it is attached. */
    frontend?: WindowEditorClient;

    constructor(@inject(WindowServerOptions) readonly options: WindowServerOptions) {
        this.log = new WindowEventLog(options.logger);
    }

    get windowId(): string {
        return this.options.windowId;
    }

    /** The browser side, for a tool that needs it; throws the reason a CLI is told otherwise. */
    get window(): WindowEditorClient {
        if (!this.frontend) {
            throw new Error('The Theia window of this session is not open (closed or reloading)');
        }
        return this.frontend;
    }
}
