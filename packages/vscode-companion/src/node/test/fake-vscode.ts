// Loading this module makes `require('vscode')` (which only an extension host provides) give the fake
// below, for specs of the extension's code in Node. Import it before the code under test.
import Module = require('module');

type Layer = 'defaultValue' | 'globalValue' | 'workspaceValue' | 'workspaceFolderValue';

/**
 * The extension's settings in every scope, as `vscode.workspace.getConfiguration(section)` answers:
 * `inspect` gives each scope's value; `get` merges them, the folder's winning, as a host does for a
 * window-scoped setting (or one that does not honour a setting's scope at all).
 */
export class FakeSettings {
    protected readonly values = new Map<string, Partial<Record<Layer, unknown>>>();

    set(layer: Layer, key: string, value: unknown): void {
        this.values.set(key, { ...this.values.get(key), [layer]: value });
    }

    clear(): void {
        this.values.clear();
    }

    configuration(section: string): object {
        const of = (key: string) => this.values.get(`${section}.${key}`) ?? {};
        return {
            get: (key: string, fallback?: unknown) => {
                const layers = of(key);
                return layers.workspaceFolderValue ?? layers.workspaceValue ?? layers.globalValue ?? layers.defaultValue ?? fallback;
            },
            inspect: (key: string) => ({ key: `${section}.${key}`, ...of(key) })
        };
    }
}

export const fakeSettings = new FakeSettings();

const fakeVscode = {
    workspace: { getConfiguration: (section: string) => fakeSettings.configuration(section) }
};

const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
const load = loader._load;
loader._load = function (request: string, ...rest: unknown[]): unknown {
    return request === 'vscode' ? fakeVscode : load.call(this, request, ...rest);
};
