import { Container } from '@theia/core/shared/inversify';
import { bindPreferenceService } from '@theia/core/lib/browser/frontend-application-bindings';
import { bindMockPreferenceProviders, MockPreferenceProvider } from '@theia/core/lib/browser/preferences/test/mock-preference-provider';
import { CommandService } from '@theia/core/lib/common/command';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { PreferenceProvider } from '@theia/core/lib/common/preferences/preference-provider';
import { PreferenceSchema, PreferenceSchemaService } from '@theia/core/lib/common/preferences/preference-schema';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import URI from '@theia/core/lib/common/uri';
import { Disposable } from '@theia/core/lib/common/disposable';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { ExecutionSettings } from '../untrusted-workspace/execution-settings';

/** Where a test puts a value: the user's settings, the workspace file, or the folder's `.theia/settings.json`. */
export type SettingsScope = 'user' | 'workspace' | 'folder';

const SCOPES: Record<SettingsScope, PreferenceScope> = { user: PreferenceScope.User, workspace: PreferenceScope.Workspace, folder: PreferenceScope.Folder };

/**
 * Theia's own preference service (its scopes merged as in the IDE, each scope's settings held in
 * memory) under the real `ExecutionSettings`, for specs of settings that must be read from user scope
 * only: a test puts values in any scope and sees what the code reads and what the user was told.
 * Needs `enableBrowserDom` while it is created and used.
 */
export class UserScopeTestbed {
    readonly container = new Container();
    /** What the user was shown as warnings, in order. */
    readonly warnings: string[] = [];
    readonly preferences: PreferenceService;

    constructor(schemas: PreferenceSchema[]) {
        const bind = this.container.bind.bind(this.container);
        bindPreferenceService(bind);
        bindMockPreferenceProviders(bind, this.container.unbind.bind(this.container));
        this.container.bind(MessageService).toConstantValue({
            warn: async (message: string) => {
                this.warnings.push(message);
                return undefined;
            }
        } as unknown as MessageService);
        this.container.bind(ILogger).toConstantValue({ warn: async () => undefined, error: async () => undefined } as unknown as ILogger);
        this.container.bind(CommandService).toConstantValue({ executeCommand: async () => undefined });
        const roots = [{ resource: new URI(UserScopeTestbed.FOLDER) }];
        this.container.bind(WorkspaceService).toConstantValue({
            tryGetRoots: () => roots, roots: Promise.resolve(roots), onWorkspaceChanged: () => Disposable.NULL
        } as unknown as WorkspaceService);
        this.container.bind(ExecutionSettings).toSelf().inSingletonScope();
        const schemaService = this.container.get<PreferenceSchemaService>(PreferenceSchemaService);
        schemas.forEach(schema => schemaService.addSchema(schema));
        this.preferences = this.container.get<PreferenceService>(PreferenceService);
    }

    static readonly FOLDER = 'file:///workspace';

    /** Resolves once Theia's service has read every scope. */
    async ready(): Promise<void> {
        Object.values(SCOPES).forEach(scope => this.provider(scope).markReady());
        await this.preferences.ready;
    }

    async set(scope: SettingsScope, preferenceName: string, value: unknown): Promise<void> {
        await this.provider(SCOPES[scope]).setPreference(preferenceName, value, scope === 'folder' ? UserScopeTestbed.FOLDER : undefined);
    }

    /** The real `ExecutionSettings` over these scopes. */
    get executionSettings(): ExecutionSettings {
        return this.container.get(ExecutionSettings);
    }

    get<T>(token: { new(...args: never[]): T } | symbol): T {
        return this.container.get<T>(token as symbol);
    }

    protected provider(scope: PreferenceScope): MockPreferenceProvider {
        return this.container.getNamed<MockPreferenceProvider>(PreferenceProvider, scope);
    }
}
