import { ChildProcess, execFile, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { promisify } from 'util';
import { trackProcess } from '../support/processes';

const run = promisify(execFile);

/**
 * What every `podman run` here needs on machines like this project's: runc (crun refuses their hybrid
 * cgroup layout) and open-file and process limits below the host's hard limits (at the hard limit
 * podman refuses them). Elsewhere they do no harm.
 */
export function podmanRunDefaults(): string[] {
    const hard = execFileSync('bash', ['-c', 'ulimit -Hn; ulimit -Hu'], { encoding: 'utf8' }).trim().split('\n');
    // Half the hard limit, and no more processes than a workspace uses: here podman refused nproc=48183 of 96367.
    const below = (limit: string, most: number) => limit === 'unlimited' ? most : Math.min(most, Math.max(1024, Math.floor(Number(limit) / 2)));
    const files = below(hard[0], 65536);
    const processes = below(hard[1], 4096);
    return ['--runtime', 'runc', '--ulimit', `nofile=${files}:${files}`, '--ulimit', `nproc=${processes}:${processes}`];
}

export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
    const { stdout } = await run('podman', args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
}

export interface PodmanRunOptions {
    readonly user?: string;
    readonly env?: Record<string, string>;
    /** host path → container path, read-write unless `:ro` is part of the container path. */
    readonly volumes?: Record<string, string>;
    /** The container's port to publish on a random port of the host's 127.0.0.1. */
    readonly publish?: number;
    /** More options of `podman run`. */
    readonly runOptions?: string[];
    /** The command and its arguments, after the image. */
    readonly args?: string[];
}

/** One container of an image, run detached and removed (with whatever it wrote) when disposed. */
export class PodmanContainer {
    protected constructor(readonly id: string, readonly image: string) { }

    static async start(image: string, options: PodmanRunOptions = {}): Promise<PodmanContainer> {
        const args = ['run', '--detach', ...podmanRunDefaults()];
        if (options.user) {
            args.push('--user', options.user);
        }
        Object.entries(options.env ?? {}).forEach(([name, value]) => args.push('--env', `${name}=${value}`));
        Object.entries(options.volumes ?? {}).forEach(([host, inside]) => args.push('--volume', `${host}:${inside}`));
        if (options.publish) {
            args.push('--publish', `127.0.0.1::${options.publish}`);
        }
        const id = (await podman([...args, ...options.runOptions ?? [], image, ...options.args ?? []])).trim();
        return new PodmanContainer(id, image);
    }

    /** `http://127.0.0.1:<port>` of the published `containerPort`. */
    async url(containerPort: number): Promise<string> {
        const mapping = (await podman(['port', this.id, `${containerPort}/tcp`])).trim().split('\n')[0];
        return `http://${mapping}`;
    }

    async logs(): Promise<string> {
        const { stdout, stderr } = await run('podman', ['logs', this.id], { maxBuffer: 64 * 1024 * 1024 });
        return stdout + stderr;
    }

    /** Runs a command in the container as its user (bash -c), and returns its standard output. */
    async exec(script: string, options: { user?: string; input?: string } = {}): Promise<string> {
        const args = ['exec', '--interactive', ...(options.user ? ['--user', options.user] : []), this.id, 'bash', '-c', script];
        return new Promise((resolve, reject) => {
            const child = execFile('podman', args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) =>
                error ? reject(new Error(`${script}: ${error.message}\n${stderr}`)) : resolve(stdout));
            child.stdin!.end(options.input ?? '');
        });
    }

    /**
     * `node <argv…>` in the container with exactly `env` (a terminal's environment) and `cwd`, its stdio
     * piped: a process of the container, as a CLI started in one of its terminals is. The environment
     * goes through a private file, not the command line.
     */
    spawnNode(argv: string[], env: NodeJS.ProcessEnv, cwd: string, envFileDir: string): ChildProcess {
        const envFile = path.join(envFileDir, `env-${Date.now()}-${Math.random().toString(36).slice(2)}`);
        fs.writeFileSync(envFile, Object.entries(env).filter(([, value]) => value !== undefined && !value.includes('\n'))
            .map(([name, value]) => `${name}=${value}`).join('\n') + '\n', { mode: 0o600 });
        const child = spawn('podman', ['exec', '--interactive', '--env-file', envFile, '--workdir', cwd, this.id, 'node', ...argv],
            { stdio: ['pipe', 'pipe', 'pipe'] });
        trackProcess(child.pid!);
        child.once('spawn', () => setTimeout(() => fs.rmSync(envFile, { force: true }), 5000));
        return child;
    }

    /** The TCP sockets listening inside the container: address and port. */
    async listening(): Promise<{ address: string; port: number }[]> {
        const tables = await this.exec('cat /proc/net/tcp /proc/net/tcp6');
        const LISTEN = '0A';
        return tables.split('\n').map(row => row.trim().split(/\s+/)).filter(columns => columns[3] === LISTEN).map(columns => {
            const [hex, port] = columns[1].split(':');
            return { address: decodeAddress(hex), port: parseInt(port, 16) };
        });
    }

    /** The container's file system as the host sees it (running or stopped); a path inside → on the host. */
    async rootfs(): Promise<(inside: string) => string> {
        const root = (await podman(['mount', this.id])).trim();
        return inside => path.join(root, inside);
    }

    /** `podman stop` (SIGTERM, then SIGKILL after `graceSeconds`): how long it took and the exit code. */
    async stop(graceSeconds = 10): Promise<{ seconds: number; exitCode: number }> {
        const started = Date.now();
        await podman(['stop', '--time', String(graceSeconds), this.id]);
        const seconds = (Date.now() - started) / 1000;
        const exitCode = Number((await podman(['inspect', '--format', '{{.State.ExitCode}}', this.id])).trim());
        return { seconds, exitCode };
    }

    async dispose(): Promise<void> {
        await podman(['rm', '--force', '--time', '0', this.id]).catch(() => undefined);
    }
}

/** /proc/net/tcp{,6} addresses: little-endian 32-bit words of hex. */
function decodeAddress(hex: string): string {
    const words = hex.match(/.{8}/g)!.map(word => word.match(/../g)!.reverse().join(''));
    if (words.length === 1) {
        return words[0].match(/../g)!.map(byte => parseInt(byte, 16)).join('.');
    }
    const groups = words.join('').match(/.{4}/g)!.map(group => parseInt(group, 16).toString(16));
    const text = groups.join(':');
    return text === '0:0:0:0:0:0:0:0' ? '::' : text === '0:0:0:0:0:0:0:1' ? '::1' : text;
}
