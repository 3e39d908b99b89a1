import { spawn } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { trackProcess } from '../support/processes';
import { REPO_ROOT } from './theia-backend';

interface TreeNode {
    version?: string;
    dependencies?: Record<string, TreeNode>;
}

/** The Theia versions the packages support, as `configs/theia-support.json` declares them (its description says what each field is). */
export interface TheiaSupport {
    readonly peerRange: string;
    readonly monacoEditorCorePeerRange: string;
    readonly tested: readonly string[];
    readonly released: readonly string[];
}

export const THEIA_SUPPORT: TheiaSupport = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'configs', 'theia-support.json'), 'utf8'));

/**
 * The versions the compatibility test builds apps at: those `npm run test:compat -- <version>…` names
 * (passed on in `THEIA_COMPAT_VERSIONS`), else the tested ones. Each must be an exact release, as the
 * app's package.json pins it.
 */
export function compatVersions(env: NodeJS.ProcessEnv = process.env): readonly string[] {
    const given = env.THEIA_COMPAT_VERSIONS?.split(/[\s,]+/).filter(Boolean) ?? [];
    const bad = given.filter(version => !/^1\.\d+\.\d+$/.test(version));
    if (bad.length) {
        throw new Error(`THEIA_COMPAT_VERSIONS: ${bad.join(', ')} is not a Theia 1.x release (like 1.77.0)`);
    }
    return given.length ? given : THEIA_SUPPORT.tested;
}

/**
 * Where the compatibility apps, their tarballs and npm's cache are kept between runs. Outside the
 * repository on purpose: inside it, Node would resolve anything the app lacks from the repository's
 * own node_modules, and the test would no longer show what a user's app gets.
 */
export const COMPAT_ROOT = path.join(os.tmpdir(), 'theia-cli-companion-compat');

/** The Theia packages of the app a user would build: the usual browser IDE, plus Theia AI for the chat. */
const THEIA_PACKAGES = [
    'core', 'editor', 'monaco', 'filesystem', 'workspace', 'terminal', 'task', 'navigator', 'markers', 'output',
    'preferences', 'messages', 'process', 'ai-core', 'ai-chat', 'ai-chat-ui'
];

/** Our packages that are Theia extensions: the code that uses Theia's API. */
const THEIA_EXTENSIONS = ['ai-cli-core', 'ai-cli-ide-companion', 'ai-acp-chat', 'ai-agent-tasks'];

/**
 * What users of the Theia IDE product have: VS Code extensions run in Theia's plugin host, and Theia
 * extensions need a rebuild of the app. The app of the plugin-host test has no extension of ours.
 */
const PLUGIN_HOST_PACKAGES = [
    'core', 'editor', 'monaco', 'filesystem', 'workspace', 'terminal', 'task', 'navigator', 'markers', 'output',
    'preferences', 'messages', 'process', 'plugin-ext', 'plugin-ext-vscode'
];

/** How npm and the build run: their caches, HOME and temporary files under {@link COMPAT_ROOT}, none in the user's home. */
function buildEnvironment(): NodeJS.ProcessEnv {
    const home = path.join(COMPAT_ROOT, 'home');
    const tmp = path.join(COMPAT_ROOT, 'tmp');
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(tmp, { recursive: true });
    const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        LANG: 'C.UTF-8',
        HOME: home,
        TMPDIR: tmp,
        XDG_CACHE_HOME: path.join(home, '.cache'),
        XDG_CONFIG_HOME: path.join(home, '.config'),
        npm_config_cache: path.join(COMPAT_ROOT, 'npm-cache'),
        npm_config_update_notifier: 'false',
        // @theia/cli brings puppeteer, whose postinstall would download a browser.
        PUPPETEER_SKIP_DOWNLOAD: 'true'
    };
    // As scripts/setup.sh: native modules build against the headers of the Node that runs them.
    const prefix = path.dirname(path.dirname(process.execPath));
    if (process.env.npm_config_nodedir) {
        env.npm_config_nodedir = process.env.npm_config_nodedir;
    } else if (fs.existsSync(path.join(prefix, 'include', 'node', 'node.h'))) {
        env.npm_config_nodedir = prefix;
    }
    return env;
}

/** Runs a command to its end: its exit code (or signal) and everything it printed. */
function runCollecting(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | string; output: string }> {
    return new Promise((resolve, reject) => {
        const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
        trackProcess(child.pid!);
        let output = '';
        child.stdout.on('data', chunk => output += chunk);
        child.stderr.on('data', chunk => output += chunk);
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        child.once('error', error => {
            clearTimeout(timer);
            reject(error);
        });
        child.once('exit', (code, signal) => {
            clearTimeout(timer);
            resolve({ code: signal ?? code ?? 'unknown', output });
        });
    });
}

/** Runs a command to its end; rejects with the end of its output when it fails. */
async function runToEnd(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
    const { code, output } = await runCollecting(command, args, cwd, env, timeoutMs);
    if (code !== 0) {
        throw new Error(`${command} ${args.join(' ')} (in ${cwd}) ended with ${code}:\n${output.slice(-6000)}`);
    }
    return output;
}

/** `npm pack` of every package of this repository, as they would be published; the tarballs' paths. */
export async function packAllPackages(): Promise<string[]> {
    const destination = path.join(COMPAT_ROOT, 'tarballs');
    fs.rmSync(destination, { recursive: true, force: true });
    fs.mkdirSync(destination, { recursive: true });
    // Private packages are not published to npm (the VS Code extension ships as a .vsix).
    const workspaces = fs.readdirSync(path.join(REPO_ROOT, 'packages'))
        .filter(name => !JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'packages', name, 'package.json'), 'utf8')).private)
        .flatMap(name => ['--workspace', `packages/${name}`]);
    const output = await runToEnd('npm', ['pack', ...workspaces, '--pack-destination', destination, '--json', '--loglevel=error'],
        REPO_ROOT, { ...process.env, npm_config_update_notifier: 'false' }, 10 * 60_000);
    const packed: { filename: string }[] = JSON.parse(output.slice(output.indexOf('[')));
    return packed.map(entry => path.join(destination, entry.filename));
}

/**
 * A Theia browser app outside this repository, at one Theia version, with our tarballs installed the
 * way a user adds them: its own folder, its own `npm install`, no workspace links. Kept between runs
 * while neither the tarballs nor the version change.
 */
export class CompatApp {
    protected constructor(readonly dir: string, readonly theiaVersion: string) { }

    get backendMain(): string {
        return path.join(this.dir, 'lib', 'backend', 'main.js');
    }

    /** A file of one of our packages as installed in the app. */
    installedFile(packageName: string, relative: string): string {
        return path.join(this.dir, 'node_modules', '@theia-cli-companion', packageName, relative);
    }

    /**
     * The app at `theiaVersion` with `tarballs` installed; with `pluginHost`, instead, the app of the
     * Theia IDE product's users: Theia's VS Code plugin host and no package of ours.
     */
    static async prepare(theiaVersion: string, tarballs: readonly string[], options: { pluginHost?: boolean } = {}): Promise<CompatApp> {
        const manifest = options.pluginHost ? CompatApp.pluginHostManifest(theiaVersion) : CompatApp.manifest(theiaVersion, tarballs);
        const key = createHash('sha256').update(JSON.stringify(manifest));
        tarballs.forEach(tarball => key.update(fs.readFileSync(tarball)));
        const digest = key.digest('hex');
        const app = new CompatApp(path.join(COMPAT_ROOT, `theia-${theiaVersion}${options.pluginHost ? '-plugin-host' : ''}`), theiaVersion);
        const marker = path.join(app.dir, 'built-from.txt');
        if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === digest && fs.existsSync(app.backendMain)) {
            return app;
        }
        fs.rmSync(app.dir, { recursive: true, force: true });
        fs.mkdirSync(app.dir, { recursive: true });
        fs.writeFileSync(path.join(app.dir, 'package.json'), JSON.stringify(manifest, undefined, 2));
        const env = buildEnvironment();
        await runToEnd('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], app.dir, env, 20 * 60_000);
        await runToEnd(path.join(app.dir, 'node_modules', '.bin', 'theia'), ['build'], app.dir, env, 15 * 60_000);
        fs.writeFileSync(marker, digest);
        return app;
    }

    /** The app's package.json: the usual Theia packages at one version, our tarballs, the CLI to build it. */
    protected static manifest(theiaVersion: string, tarballs: readonly string[]): object {
        const ours = Object.fromEntries(tarballs.map(tarball => {
            const name = path.basename(tarball).replace(/^theia-cli-companion-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '');
            return [`@theia-cli-companion/${name}`, `file:${tarball}`];
        }));
        return {
            private: true,
            name: `compat-theia-${theiaVersion.replace(/\./g, '-')}`,
            version: '0.0.0',
            theia: {
                target: 'browser',
                frontend: { config: { applicationName: `Theia ${theiaVersion} with CLI Companion` } }
            },
            dependencies: {
                ...Object.fromEntries(THEIA_PACKAGES.map(name => [`@theia/${name}`, theiaVersion])),
                ...ours
            },
            devDependencies: { '@theia/cli': theiaVersion }
        };
    }

    protected static pluginHostManifest(theiaVersion: string): object {
        return {
            private: true,
            name: `plugin-host-theia-${theiaVersion.replace(/\./g, '-')}`,
            version: '0.0.0',
            theia: {
                target: 'browser',
                frontend: { config: { applicationName: 'Eclipse Theia' } }
            },
            dependencies: Object.fromEntries(PLUGIN_HOST_PACKAGES.map(name => [`@theia/${name}`, theiaVersion])),
            devDependencies: { '@theia/cli': theiaVersion }
        };
    }

    /**
     * Type-checks our Theia extensions' sources against the Theia this app has: a Theia API they use
     * that differs at this version fails to compile here. The sources are copied into the app, so their
     * imports resolve in its node_modules (our Theia-free packages: the installed tarballs' declarations);
     * the compiler options are the repository's own.
     */
    async typeCheck(): Promise<{ code: number | string; output: string }> {
        const dir = path.join(this.dir, 'typecheck');
        fs.rmSync(dir, { recursive: true, force: true });
        for (const name of THEIA_EXTENSIONS) {
            fs.cpSync(path.join(REPO_ROOT, 'packages', name, 'src'), path.join(dir, name, 'src'), { recursive: true });
        }
        const base = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'configs', 'base.tsconfig.json'), 'utf8')).compilerOptions;
        const { composite: _composite, declaration: _declaration, declarationMap: _declarationMap, sourceMap: _sourceMap, ...options } = base;
        // From 1.74 a Theia app no longer has @types/react (a type package only a build needs): the one
        // this repository builds with stands in, so what is checked is Theia's API, not a missing package.
        const reactTypes = fs.existsSync(path.join(this.dir, 'node_modules', '@types', 'react')) ? undefined : path.join(REPO_ROOT, 'node_modules', '@types', 'react');
        fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
            compilerOptions: {
                ...options, noEmit: true, types: ['node'],
                ...reactTypes ? { baseUrl: dir, paths: { 'react': [reactTypes], 'react/*': [`${reactTypes}/*`] } } : {}
            },
            include: THEIA_EXTENSIONS.flatMap(name => [`${name}/src/**/*.ts`, `${name}/src/**/*.tsx`]),
            // Specs and test helpers import test-only packages a user's app does not have.
            exclude: ['**/*.spec.ts', '**/*.slow-spec.ts', '**/test/**']
        }));
        return runCollecting(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', dir], dir, buildEnvironment(), 5 * 60_000);
    }

    /**
     * The app's whole installed tree as `npm ls --all` sees it: every version of each package
     * anywhere in it, and what npm finds wrong (unmet or invalid peers, extraneous packages).
     */
    async installedTree(): Promise<{ versionsOf(packageName: string): string[]; problems: string[] }> {
        // npm ls exits with 1 when the tree has problems and still prints it.
        const { output } = await runCollecting('npm', ['ls', '--all', '--json'], this.dir, buildEnvironment(), 120_000);
        const tree: TreeNode & { problems?: string[] } = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1));
        const versions = new Map<string, Set<string>>();
        const walk = (node: TreeNode) => {
            for (const [name, child] of Object.entries(node.dependencies ?? {})) {
                if (child.version) {
                    versions.set(name, (versions.get(name) ?? new Set()).add(child.version));
                }
                walk(child);
            }
        };
        walk(tree);
        return { versionsOf: name => [...versions.get(name) ?? []].sort(), problems: tree.problems ?? [] };
    }
}
