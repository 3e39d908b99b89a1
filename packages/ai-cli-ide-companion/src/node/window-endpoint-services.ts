import type { IdeTransport } from '@theia-cli-companion/cli-process/lib/common';
import type { IdeContext } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { IdeCompanionFrontendClient, SessionCredential } from '../common/ide-companion-protocol';
import type { CompanionLogger } from './companion-logger';
import type { DiffReviewManager } from './diff-review-manager';
import type { IdeContextTools } from './ide-context-tools';

/** What a window gives each of its endpoints to serve their sessions from. */
export interface WindowEndpointServices {
    /** The window's event log. */
    readonly logger: CompanionLogger;
    /** The window's frontend, while it is attached. */
    readonly frontend: () => IdeCompanionFrontendClient | undefined;
    /** The window's realpath'd workspace roots. */
    readonly roots: () => readonly string[];
    /** The editor context last reported by the window. */
    readonly context: () => IdeContext | undefined;
    readonly diffs: DiffReviewManager;
    readonly contextTools: IdeContextTools;
    /** The secrets the endpoint of a transport accepts now, each with who holds it (read on every connection). */
    credentials(transport: IdeTransport): ReadonlyMap<SessionCredential, string>;
}
