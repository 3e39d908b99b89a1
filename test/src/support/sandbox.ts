import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface Sandbox {
    readonly root: string;
    /** THEIA_CONFIG_DIR: the user's settings.json lives here. */
    readonly theiaConfig: string;
    /** The environment every process of a test runs with: nothing points at the real home. */
    readonly env: NodeJS.ProcessEnv;
    readonly home: string;
    readonly tmp: string;
    dispose(): void;
}

/**
 * A fresh directory tree standing in for HOME, TMPDIR and every config/cache location the backend,
 * the browser, the shells and the CLIs would otherwise write to.
 */
export function createSandbox(theiaSettings: Record<string, unknown> = {}): Sandbox {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-companion-e2e-')));
    const dirs = {
        home: path.join(root, 'home'),
        tmp: path.join(root, 'tmp'),
        theia: path.join(root, 'theia-config'),
        xdgConfig: path.join(root, 'home', '.config'),
        xdgCache: path.join(root, 'home', '.cache'),
        xdgData: path.join(root, 'home', '.local', 'share'),
        xdgState: path.join(root, 'home', '.local', 'state')
    };
    Object.values(dirs).forEach(dir => fs.mkdirSync(dir, { recursive: true }));
    // Theia's defaults, workspace trust included: the first window on a folder asks, and TheiaWindow.open answers as a user does.
    fs.writeFileSync(path.join(dirs.theia, 'settings.json'), JSON.stringify(theiaSettings));
    const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        LANG: 'C.UTF-8',
        HOME: dirs.home,
        TMPDIR: dirs.tmp,
        GEMINI_CLI_HOME: dirs.home,
        QWEN_HOME: path.join(dirs.home, '.qwen'),
        CLAUDE_CONFIG_DIR: path.join(dirs.home, '.claude'),
        THEIA_CONFIG_DIR: dirs.theia,
        XDG_CONFIG_HOME: dirs.xdgConfig,
        XDG_CACHE_HOME: dirs.xdgCache,
        XDG_DATA_HOME: dirs.xdgData,
        XDG_STATE_HOME: dirs.xdgState,
        HISTFILE: '/dev/null',
        SHELL: '/bin/bash',
        npm_config_cache: path.join(dirs.home, '.npm')
    };
    return {
        root, env, home: dirs.home, tmp: dirs.tmp, theiaConfig: dirs.theia,
        dispose: () => fs.rmSync(root, { recursive: true, force: true })
    };
}

/**
 * Where the backend of this sandbox writes Gemini CLI's discovery files: the standard
 * `<tmpdir>/gemini/ide` under the sandbox's TMPDIR, which the user holds there (test/src/security/shared-tmp.slow-spec.ts
 * is the layout where another account does, and the files go to a private directory instead).
 */
export function geminiDiscoveryDirectory(sandbox: Pick<Sandbox, 'tmp'>): string {
    return path.join(sandbox.tmp, 'gemini', 'ide');
}

/** Creates a workspace folder tree inside the sandbox; returns its realpath. */
export function createWorkspace(sandbox: Sandbox, name: string, files: Record<string, string> = {}): string {
    const dir = path.join(sandbox.root, name);
    fs.mkdirSync(dir, { recursive: true });
    for (const [relative, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
        fs.writeFileSync(path.join(dir, relative), content);
    }
    return fs.realpathSync(dir);
}

/** The user's Theia settings as settings.json holds them now. */
export function readTheiaSettings(sandbox: Pick<Sandbox, 'theiaConfig'>): Record<string, unknown> {
    const file = path.join(sandbox.theiaConfig, 'settings.json');
    try {
        return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
        throw new Error(`${file} is no JSON object: ${(error as Error).message}`);
    }
}

/** Changes the user's Theia settings the way a user editing settings.json does; a running app picks them up. */
export function updateTheiaSettings(sandbox: Sandbox, changes: Record<string, unknown>): void {
    updateSettingsFile(path.join(sandbox.theiaConfig, 'settings.json'), changes);
}

/** Changes a settings.json as a user editing it does: each key set, or removed when its value is undefined. */
export function updateSettingsFile(file: string, changes: Record<string, unknown>): void {
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const [key, value] of Object.entries(changes)) {
        if (value === undefined) {
            delete settings[key];
        } else {
            settings[key] = value;
        }
    }
    fs.writeFileSync(file, JSON.stringify(settings, undefined, 2));
}
