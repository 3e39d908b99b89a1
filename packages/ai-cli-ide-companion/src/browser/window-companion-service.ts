import { inject, injectable, named, postConstruct } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { IdeCompanionBackend, WindowCompanionStatus } from '../common/ide-companion-protocol';
import { IdeCompanionFrontendClientImpl } from './ide-companion-frontend-client-impl';

/** Survives a reload of the same browser tab (not a new tab), which is exactly a window's lifetime. */
const WINDOW_ID_KEY = 'theia-ai-cli-companion.windowId';
/** Set when the page is left: on the next load of this tab, that load is a reload, not a duplicate. */
const PAGE_LEFT_KEY = 'theia-ai-cli-companion.pageLeft';
/** A terminal never waits longer than this for the companion before opening without its variables. */
const TERMINAL_ENV_TIMEOUT_MS = 5000;

/**
 * This window's view of its companion server: attaches on start (and again after the backend
 * connection comes back), keeps the advertised roots in step with the workspace, and hands out the
 * terminal variables.
 */
@injectable()
export class WindowCompanionService {

    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(IdeCompanionFrontendClientImpl) protected readonly client: IdeCompanionFrontendClientImpl;
    @inject(WorkspaceService) protected readonly workspaceService: WorkspaceService;
    @inject(ILogger) @named('ai-cli-ide-companion:WindowCompanionService') protected readonly logger: ILogger;

    protected current?: WindowCompanionStatus;
    protected attaching?: Promise<WindowCompanionStatus>;

    protected readonly onDidChangeStatusEmitter = new Emitter<WindowCompanionStatus>();
    readonly onDidChangeStatus: Event<WindowCompanionStatus> = this.onDidChangeStatusEmitter.event;
    /** Fires after every successful attach, including re-attaches after the backend connection returned. */
    protected readonly onDidAttachEmitter = new Emitter<WindowCompanionStatus>();
    readonly onDidAttach: Event<WindowCompanionStatus> = this.onDidAttachEmitter.event;

    @postConstruct()
    protected init(): void {
        window.addEventListener('pagehide', () => sessionStorage.setItem(PAGE_LEFT_KEY, 'true'));
        this.client.onDidChangeStatus(status => this.update(status));
        this.workspaceService.onWorkspaceChanged(() => this.syncRoots());
        const connection = this.backend as unknown as { onDidOpenConnection?: Event<void> };
        // After the backend connection is re-established the per-connection service is new: re-attach.
        connection.onDidOpenConnection?.(() => {
            if (this.current) {
                this.attaching = undefined;
                this.attach().catch(error => this.logger.warn(`Re-attaching the CLI companion failed: ${error}`));
            }
        });
    }

    get status(): WindowCompanionStatus | undefined {
        return this.current;
    }

    /** Resolves once this window's server listens and its discovery files exist. */
    attach(): Promise<WindowCompanionStatus> {
        if (!this.attaching) {
            this.attaching = this.doAttach();
            this.attaching.catch(() => this.attaching = undefined);
        }
        return this.attaching;
    }

    protected async doAttach(): Promise<WindowCompanionStatus> {
        const rootUris = await this.rootUris();
        const status = await this.backend.attachWindow({
            windowId: sessionStorage.getItem(WINDOW_ID_KEY) ?? undefined,
            reclaim: sessionStorage.getItem(PAGE_LEFT_KEY) === 'true' || this.current !== undefined,
            rootUris
        });
        sessionStorage.setItem(WINDOW_ID_KEY, status.windowId);
        sessionStorage.setItem(PAGE_LEFT_KEY, 'false');
        this.update(status);
        this.onDidAttachEmitter.fire(status);
        return status;
    }

    /**
     * The variables a terminal of this window needs so that a CLI started in it connects here.
     * Never throws and never blocks a terminal for long: without the companion it is just a terminal.
     */
    async terminalEnvironment(): Promise<Record<string, string>> {
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
            const status = await Promise.race([
                this.attach(),
                new Promise<undefined>(resolve => timer = setTimeout(() => resolve(undefined), TERMINAL_ENV_TIMEOUT_MS))
            ]);
            if (!status) {
                this.logger.warn('The CLI companion did not start in time; this terminal opens without its variables');
            }
            return { ...status?.terminalEnvironment };
        } catch (error) {
            this.logger.warn(`The CLI companion is unavailable; this terminal opens without its variables: ${error}`);
            return {};
        } finally {
            clearTimeout(timer);
        }
    }

    protected async syncRoots(): Promise<void> {
        if (!this.current) {
            return;
        }
        try {
            this.update(await this.backend.setWorkspaceRoots(await this.rootUris()));
        } catch (error) {
            this.logger.warn(`Could not advertise the new workspace roots to CLIs: ${error}`);
        }
    }

    protected async rootUris(): Promise<string[]> {
        const roots = await this.workspaceService.roots;
        return roots.map(root => root.resource.toString());
    }

    protected update(status: WindowCompanionStatus): void {
        this.current = status;
        this.onDidChangeStatusEmitter.fire(status);
    }
}
