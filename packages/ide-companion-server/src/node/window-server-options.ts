import type { IdeInfo, StdioConfig } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { CliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import type { WindowLogger } from './window-logger';

/** What one window's graph is built from: the only value its container is given. */
export const WindowServerOptions = Symbol('WindowServerOptions');
export interface WindowServerOptions {
    readonly windowId: string;
    /** Every flavour the window can advertise; which of them it does is chosen at start and by setFlavours. */
    readonly flavours: readonly CliFlavour[];
    /** The backend's logger; the window's own events also go to its event log. */
    readonly logger: WindowLogger;
    /** The PID written into the discovery files: the process that serves the socket (Theia's backend, a VS Code extension host). */
    readonly serverPid: number;
    /** How the window's IDE names itself to the CLIs; Eclipse Theia's when absent. */
    readonly ideInfo?: IdeInfo;
    readonly stdioFor?: (discoveryFile: string) => StdioConfig | undefined;
    /** How long a Streamable HTTP session may be without its event stream (tests shorten it). */
    readonly streamGraceMs?: number;
    /** How long a Streamable HTTP session that never opened an event stream may go without a request. */
    readonly idleSessionMs?: number;
}
