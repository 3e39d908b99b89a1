import { inject, injectable, named, postConstruct } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { CLI_FLAVOUR_IDS, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { IdeCompanionBackend } from '../common/ide-companion-protocol';
import { WindowServerStatus } from '@theia-cli-companion/ide-companion-server/lib/common';
import { COMPANION_ENABLED_PREF, flavourPreference, IdeCompanionPreferences } from '../common/ide-companion-preferences';
import { WindowEditorClientImpl } from './window-editor-client-impl';
import { ExecutionSettings } from './untrusted-workspace/execution-settings';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';

/** Survives a reload of the same browser tab (not a new tab), which is exactly a window's lifetime. */
const WINDOW_ID_KEY = 'theia-ai-cli-companion.windowId';
/** Set when the page is left: on the next load of this tab, that load is a reload, not a duplicate. */
const PAGE_LEFT_KEY = 'theia-ai-cli-companion.pageLeft';
/** A terminal never waits longer than this for the companion before opening without its variables. */
const TERMINAL_ENV_TIMEOUT_MS = 5000;

export type WindowServerState =
    | { readonly kind: 'starting' }
    | { readonly kind: 'running'; readonly status: WindowServerStatus }
    /** Turned off by the user: `aiCliCompanion.enabled`, or every CLI flavour off. */
    | { readonly kind: 'disabled' }
    | { readonly kind: 'failed'; readonly error: string };

/**
 * This window's view of its companion server: starts it when the preferences allow (and again after
 * the backend connection comes back), stops it when they no longer do, keeps the advertised roots and
 * flavours in step with the workspace and the preferences, and hands out the terminal variables.
 */
@injectable()
export class WindowServerService {

    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(WindowEditorClientImpl) protected readonly client: WindowEditorClientImpl;
    @inject(WorkspaceService) protected readonly workspaceService: WorkspaceService;
    @inject(PreferenceService) protected readonly preferenceService: PreferenceService;
    @inject(IdeCompanionPreferences) protected readonly preferences: IdeCompanionPreferences;
    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(ILogger) @named('ai-cli-core:WindowServerService') protected readonly logger: ILogger;

    protected _state: WindowServerState = { kind: 'starting' };
    /** Resolves with the status once the server runs, or undefined when it is off or failed. */
    protected settled: Promise<WindowServerStatus | undefined>;
    /** Start, stop and flavour changes run one after another, in the order the user made them. */
    protected queue: Promise<unknown> = Promise.resolve();

    protected readonly onDidChangeStateEmitter = new Emitter<WindowServerState>();
    readonly onDidChangeState: Event<WindowServerState> = this.onDidChangeStateEmitter.event;
    /** Fires after every successful attach, including re-attaches after the backend connection returned. */
    protected readonly onDidAttachEmitter = new Emitter<WindowServerStatus>();
    readonly onDidAttach: Event<WindowServerStatus> = this.onDidAttachEmitter.event;

    @postConstruct()
    protected init(): void {
        window.addEventListener('pagehide', () => sessionStorage.setItem(PAGE_LEFT_KEY, 'true'));
        this.client.onDidChangeStatus(status => {
            if (this._state.kind === 'running') {
                this.setState({ kind: 'running', status });
            }
        });
        this.workspaceService.onWorkspaceChanged(() => this.enqueue(() => this.syncRoots()));
        this.preferences.onPreferenceChanged(change => {
            if (change.preferenceName === COMPANION_ENABLED_PREF || /^aiCliCompanion\.[a-z]+\.enabled$/.test(change.preferenceName)) {
                void this.applyPreferences();
            }
        });
        const connection = this.backend as unknown as { onDidOpenConnection?: Event<void> };
        // After the backend connection is re-established the per-connection service is new: re-attach.
        connection.onDidOpenConnection?.(() => {
            if (this._state.kind === 'running') {
                void this.applyPreferences(true);
            }
        });
        this.settled = this.enqueue(async () => {
            await this.preferenceService.ready;
            return this.reconcile(false);
        });
    }

    get state(): WindowServerState {
        return this._state;
    }

    /** The server's status while it runs. */
    get status(): WindowServerStatus | undefined {
        return this._state.kind === 'running' ? this._state.status : undefined;
    }

    /** Resolves once the server runs and its discovery files exist, or with undefined if it is off or failed. */
    whenSettled(): Promise<WindowServerStatus | undefined> {
        return this.settled;
    }

    /**
     * The flavours the user's settings turn on, if the companion is on at all: a repository's
     * `.theia/settings.json` cannot turn IDE mode on (ExecutionSettings tells the user it tried).
     */
    enabledFlavours(): CliFlavourId[] {
        if (this.settings.get<boolean>(COMPANION_ENABLED_PREF) === false) {
            return [];
        }
        return CLI_FLAVOUR_IDS.filter(id => this.settings.get<boolean>(flavourPreference(id, 'enabled')) !== false);
    }

    /** Retries after a failure: the user asked for it. */
    restart(): Promise<WindowServerStatus | undefined> {
        return this.applyPreferences(true);
    }

    protected applyPreferences(forceAttach = false): Promise<WindowServerStatus | undefined> {
        this.settled = this.enqueue(() => this.reconcile(forceAttach));
        return this.settled;
    }

    /** Brings the backend in line with the preferences: attached with the right flavours, or detached. */
    protected async reconcile(forceAttach: boolean): Promise<WindowServerStatus | undefined> {
        const flavours = this.enabledFlavours();
        try {
            if (!flavours.length) {
                if (this._state.kind === 'running') {
                    await this.backend.detachWindow();
                    this.logger.info('CLI Companion turned off for this window');
                }
                this.setState({ kind: 'disabled' });
                return undefined;
            }
            if (this._state.kind === 'running' && !forceAttach) {
                const status = await this.backend.setFlavours(flavours);
                this.setState({ kind: 'running', status });
                return status;
            }
            if (this._state.kind !== 'running') {
                this.setState({ kind: 'starting' });
            }
            const status = await this.attach(flavours);
            return status;
        } catch (error) {
            this.logger.error(`The CLI companion could not start for this window: ${error}`);
            this.setState({ kind: 'failed', error: describeError(error) });
            return undefined;
        }
    }

    protected async attach(flavours: CliFlavourId[]): Promise<WindowServerStatus> {
        const status = await this.backend.attachWindow({
            windowId: sessionStorage.getItem(WINDOW_ID_KEY) ?? undefined,
            reclaim: sessionStorage.getItem(PAGE_LEFT_KEY) === 'true' || this._state.kind === 'running',
            rootUris: await this.rootUris(),
            flavours
        });
        sessionStorage.setItem(WINDOW_ID_KEY, status.windowId);
        sessionStorage.setItem(PAGE_LEFT_KEY, 'false');
        this.setState({ kind: 'running', status });
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
                this.settled.then(settled => settled ?? 'off' as const),
                new Promise<undefined>(resolve => timer = setTimeout(() => resolve(undefined), TERMINAL_ENV_TIMEOUT_MS))
            ]);
            if (!status) {
                this.logger.warn('The CLI companion did not start in time; this terminal opens without its variables');
            }
            return status && status !== 'off' ? { ...status.terminalEnvironment } : {};
        } catch (error) {
            this.logger.warn(`The CLI companion is unavailable; this terminal opens without its variables: ${error}`);
            return {};
        } finally {
            clearTimeout(timer);
        }
    }

    protected async syncRoots(): Promise<void> {
        if (this._state.kind !== 'running') {
            return;
        }
        try {
            this.setState({ kind: 'running', status: await this.backend.setWorkspaceRoots(await this.rootUris()) });
        } catch (error) {
            this.logger.warn(`Could not advertise the new workspace roots to CLIs: ${error}`);
        }
    }

    protected async rootUris(): Promise<string[]> {
        const roots = await this.workspaceService.roots;
        return roots.map(root => root.resource.toString());
    }

    protected enqueue<T>(task: () => Promise<T>): Promise<T> {
        const run = this.queue.then(task, task);
        this.queue = run.catch(() => undefined);
        return run;
    }

    protected setState(state: WindowServerState): void {
        this._state = state;
        this.onDidChangeStateEmitter.fire(state);
    }
}
