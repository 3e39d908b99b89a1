import { ChildProcess, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { descendantsOf, isAlive, trackProcess, until, waitForExit } from '../support/processes';
import { Sandbox } from '../support/sandbox';
import { REPO_ROOT } from './theia-backend';

export const CODE_SERVER_VERSION = '4.100.3';
/** The extension as the build packs it. */
export const VSIX = path.join(REPO_ROOT, 'packages', 'vscode-companion', 'vsix', 'ai-cli-companion.vsix');
export const EXTENSION_ID = 'theia-cli-companion.ai-cli-companion';

/**
 * The code-server that scripts/install-code-server.sh installed: CODE_SERVER_HOME as scripts/test.sh
 * exports it, or installed now (the script returns at once when its cache already holds it).
 */
export function codeServerHome(): string {
    if (process.env.CODE_SERVER_HOME) {
        return process.env.CODE_SERVER_HOME;
    }
    const output = execFileSync('bash', [path.join(REPO_ROOT, 'scripts', 'install-code-server.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    return output.trim().split('\n').pop()!;
}

/**
 * One code-server with its user data and extensions inside the sandbox, the .vsix installed as a
 * user installs it (`--install-extension`), bound to a free port on 127.0.0.1. Every window opened
 * on it runs an extension host of its own; `stop` ends them all by PID, with the processes (pty host,
 * file watcher) that would outlive the main one.
 */
export class CodeServer {
    readonly dataDir: string;
    readonly extensionsDir: string;
    protected child?: ChildProcess;
    protected output = '';
    url = '';

    /**
     * `options.name` keeps a second code-server's directories apart; `options.withExtension: false` installs not ours (a baseline);
     * `options.alsoInstall` are other .vsix files to install (a bench floor); `options.env` is added to the sandbox's environment.
     */
    constructor(protected readonly sandbox: Sandbox, protected readonly settings: Record<string, unknown> = {},
        protected readonly options: { name?: string; withExtension?: boolean; alsoInstall?: readonly string[]; env?: Record<string, string> } = {}) {
        const name = options.name ?? 'code-server';
        this.dataDir = path.join(sandbox.root, `${name}-data`);
        this.extensionsDir = path.join(sandbox.root, `${name}-extensions`);
    }

    protected get bin(): string {
        return path.join(codeServerHome(), 'node_modules', '.bin', 'code-server');
    }

    protected get dirArgs(): string[] {
        return ['--user-data-dir', this.dataDir, '--extensions-dir', this.extensionsDir];
    }

    get log(): string {
        return this.output;
    }

    async start(): Promise<void> {
        for (const vsix of [...this.options.withExtension !== false ? [VSIX] : [], ...this.options.alsoInstall ?? []]) {
            execFileSync(this.bin, [...this.dirArgs, '--install-extension', vsix], { env: this.sandbox.env, cwd: this.sandbox.root, stdio: 'pipe' });
        }
        fs.mkdirSync(this.extensionsDir, { recursive: true });
        fs.mkdirSync(path.join(this.dataDir, 'User'), { recursive: true });
        fs.writeFileSync(path.join(this.dataDir, 'User', 'settings.json'), JSON.stringify({
            'workbench.startupEditor': 'none',
            'workbench.tips.enabled': false,
            'extensions.autoCheckUpdates': false,
            'extensions.autoUpdate': false,
            'telemetry.telemetryLevel': 'off',
            'terminal.integrated.defaultProfile.linux': 'bash',
            ...this.settings
        }));
        this.child = spawn(this.bin, ['--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry', '--disable-update-check',
            '--disable-getting-started-override', ...this.dirArgs], {
            env: { ...this.sandbox.env, ...this.options.env }, cwd: this.sandbox.root, stdio: ['ignore', 'pipe', 'pipe']
        });
        trackProcess(this.child.pid!);
        this.child.stdout!.on('data', chunk => this.output += chunk);
        this.child.stderr!.on('data', chunk => this.output += chunk);
        const match = await until(() => /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(this.output) ?? (this.child!.exitCode !== null && 'exited'),
            'code-server to listen', 30000);
        if (match === 'exited') {
            throw new Error(`code-server exited: ${this.output}`);
        }
        this.url = match[1];
    }

    /** The user's settings.json, as the Settings editor writes it. */
    get userSettingsFile(): string {
        return path.join(this.dataDir, 'User', 'settings.json');
    }

    /** The URL of a window on `folder`. */
    windowUrl(folder: string): string {
        return `${this.url}/?folder=${encodeURIComponent(folder)}`;
    }

    /** The extension hosts running now: one per open window. */
    extensionHosts(): number[] {
        return this.child?.pid ? descendantsOf(this.child.pid).filter(pid => {
            try {
                return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=extensionHost');
            } catch {
                return false;
            }
        }) : [];
    }

    /** The extension's output channel of every extension host so far, as the host writes it to disk. */
    extensionLog(): string {
        const logs = path.join(this.dataDir, 'logs');
        if (!fs.existsSync(logs)) {
            return '';
        }
        return fs.readdirSync(logs, { recursive: true, encoding: 'utf8' })
            .filter(file => file.includes(EXTENSION_ID) && file.endsWith('.log'))
            .map(file => fs.readFileSync(path.join(logs, file), 'utf8')).join('\n');
    }

    async stop(): Promise<void> {
        const pid = this.child?.pid;
        if (!pid) {
            return;
        }
        // All at once and by PID, children included: a process that outlives its parent (the pty host,
        // the file watcher, a language server) is no longer found below it.
        while (isAlive(pid) && !await waitForExit(pid, 0)) {
            for (const member of [...descendantsOf(pid), pid]) {
                try {
                    process.kill(member, 'SIGKILL');
                } catch {
                    // Already gone.
                }
            }
            await waitForExit(pid, 5000);
        }
    }
}
