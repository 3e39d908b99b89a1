import { ChildProcess, spawn } from 'child_process';
import * as path from 'path';
import { Sandbox } from '../support/sandbox';
import { descendantsOf, killTree, trackProcess, waitForExit } from '../support/processes';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const BACKEND_MAIN = path.join(REPO_ROOT, 'browser-app', 'lib', 'backend', 'main.js');

/** A real Theia backend of browser-app, on a random loopback port, in a sandbox. */
export class TheiaBackend {
    protected process?: ChildProcess;
    protected output = '';
    protected exited: Promise<void> = Promise.resolve();
    /** How the process ended: its exit code, or the signal that killed it; undefined while it runs. */
    exit?: { code: number | null; signal: NodeJS.Signals | null };
    url = '';

    /**
     * `main`: another app's backend entry (the benchmarks' baseline app); browser-app's by default.
     * `nodeArgs`: options for Node itself, before the entry (a heap limit, say); `appArgs`: options for
     * the app, after it (`--plugins=…`).
     */
    constructor(protected readonly sandbox: Sandbox, protected readonly workspace?: string, protected readonly main = BACKEND_MAIN,
        protected readonly nodeArgs: string[] = [], protected readonly appArgs: string[] = []) { }

    get pid(): number {
        return this.process!.pid!;
    }

    get log(): string {
        return this.output;
    }

    async start(): Promise<string> {
        const args = [...this.nodeArgs, this.main, ...(this.workspace ? [this.workspace] : []), '--hostname', '127.0.0.1', '--port', '0', ...this.appArgs];
        const child = spawn(process.execPath, args, { cwd: this.sandbox.root, env: this.sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] });
        this.process = child;
        trackProcess(child.pid!);
        this.exited = new Promise(resolve => child.once('exit', (code, signal) => {
            this.exit = { code, signal };
            resolve();
        }));
        const onData = (chunk: Buffer) => this.output += chunk.toString('utf8');
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        this.url = await new Promise<string>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`Theia backend did not start:\n${this.output}`)), 60000);
            const check = () => {
                const match = /Theia app listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(this.output);
                if (match) {
                    clearTimeout(timer);
                    resolve(match[1]);
                }
            };
            child.stdout!.on('data', check);
            child.stderr!.on('data', check);
            child.once('exit', code => {
                clearTimeout(timer);
                reject(new Error(`Theia backend exited with ${code}:\n${this.output}`));
            });
        });
        return this.url;
    }

    /** A graceful stop (SIGTERM, as `kill <pid>`, or SIGINT, as Ctrl+C), then anything it left behind is killed. */
    async stop(signal: 'SIGTERM' | 'SIGINT' = 'SIGTERM'): Promise<void> {
        if (!this.process || this.process.exitCode !== null || this.process.signalCode !== null) {
            return;
        }
        const pid = this.pid;
        const children = descendantsOf(pid);
        try {
            process.kill(pid, signal);
        } catch {
            // Already gone.
        }
        if (!await waitForExit(pid, 15000)) {
            killTree(pid);
        }
        await this.exited;
        children.forEach(child => killTree(child));
    }

    /** A crash: SIGKILL, no cleanup code of the backend runs. Its children are stopped too. */
    async kill9(): Promise<void> {
        const pid = this.pid;
        const children = descendantsOf(pid);
        process.kill(pid, 'SIGKILL');
        await this.exited;
        children.forEach(child => killTree(child));
    }
}
