import { ChildProcess, spawn } from 'child_process';
import { CLIENTS_ROOT } from '../clis/client-packages';
import * as path from 'path';
import * as readline from 'readline';
import { trackProcess } from '../support/processes';

export type CliFlavourName = 'gemini' | 'qwen';

export interface DiffReport {
    kind: 'diff' | 'closeDiff';
    filePath: string;
    result?: { status: 'accepted' | 'rejected'; content?: string };
    error?: string;
    content?: string | null;
}

/** An ide/contextUpdate as the client stored it, and when it arrived (wall clock, ms, sub-ms precision). */
export interface ContextArrival {
    readonly at: number;
    readonly context: unknown;
}

export interface ProbeReport {
    kind: 'status';
    status: { status: 'connected' | 'disconnected' | 'connecting'; details?: string };
    ide: { name: string; displayName: string } | null;
    diffing: boolean;
    port: number | null;
    /** 'stdio' while the client talks through the companion's stdio relay (a child process it started), 'http' otherwise. */
    transport: 'http' | 'stdio';
    context?: unknown;
}

/** Starts `node <argv…>` with that environment and working folder, its stdio piped. */
export type NodeRunner = (argv: string[], env: NodeJS.ProcessEnv, cwd: string) => ChildProcess;

function runNodeHere(argv: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
    const child = spawn(process.execPath, argv, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    trackProcess(child.pid!);
    return child;
}

/**
 * Runs the real IdeClient of a published CLI in its own process, with a terminal's environment and
 * cwd, exactly as the CLI started in that terminal would connect. Stopped by PID when closed.
 */
export class IdeProbe {
    protected readonly child: ChildProcess;
    protected readonly reports: ProbeReport[] = [];
    protected waiters: Array<(report: ProbeReport) => void> = [];
    protected readonly diffReports: DiffReport[] = [];
    protected diffWaiters: Array<() => void> = [];
    protected stderr = '';
    protected readonly contextListeners: Array<(update: ContextArrival) => void> = [];

    /**
     * `runNode`: how to start `node <argv…>` with `env` in `cwd`; this machine's Node by default (a
     * container's, to run the client inside it: test/src/deploy/image.slow-spec.ts).
     */
    constructor(flavour: CliFlavourName, env: NodeJS.ProcessEnv, cwd: string, runNode: NodeRunner = runNodeHere) {
        const script = path.resolve(__dirname, '..', '..', 'fixtures', `${flavour}-ide-probe.mjs`);
        this.child = runNode([script, CLIENTS_ROOT], env, cwd);
        readline.createInterface({ input: this.child.stdout! }).on('line', line => {
            let report: ProbeReport | DiffReport;
            try {
                report = JSON.parse(line);
            } catch {
                return; // The bundle may print non-JSON chatter; reports are JSON lines.
            }
            if ((report as { kind: string }).kind === 'context') {
                const update = report as unknown as ContextArrival;
                this.contextListeners.forEach(listener => listener(update));
                return;
            }
            if (report.kind !== 'status') {
                this.diffReports.push(report);
                this.diffWaiters.splice(0).forEach(waiter => waiter());
                return;
            }
            this.reports.push(report);
            this.waiters.splice(0).forEach(waiter => waiter(report));
        });
        this.child.stderr!.on('data', chunk => this.stderr += chunk);
    }

    /** The next report; the first one arrives when connect() has finished. */
    next(timeoutMs = 30000): Promise<ProbeReport> {
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`IdeProbe gave no report in ${timeoutMs} ms; stderr:\n${this.stderr}`)), timeoutMs);
            this.waiters.push(report => {
                clearTimeout(timer);
                resolve(report);
            });
        });
    }

    async connected(timeoutMs = 30000): Promise<ProbeReport> {
        const report = this.reports[0] ?? await this.next(timeoutMs);
        return report;
    }

    async status(timeoutMs = 10000): Promise<ProbeReport> {
        const next = this.next(timeoutMs);
        this.child.stdin!.write('status\n');
        return next;
    }

    /** Discovers the IDE again and connects, as `/ide enable` does; resolves with the report after it. */
    async reconnect(timeoutMs = 30000): Promise<ProbeReport> {
        const next = this.next(timeoutMs);
        this.child.stdin!.write(JSON.stringify({ cmd: 'reconnect' }) + '\n');
        return next;
    }

    /** Asks the IDE to show a diff, as the CLI does before writing a file; the answer comes via {@link diffOutcome}. */
    openDiff(filePath: string, newContent: string): void {
        this.child.stdin!.write(JSON.stringify({ cmd: 'openDiff', filePath, newContent }) + '\n');
    }

    /** Calls `listener` for every context update the client receives from now on, with its arrival time. */
    watchContext(listener: (update: ContextArrival) => void): void {
        this.contextListeners.push(listener);
        if (this.contextListeners.length === 1) {
            this.child.stdin!.write(JSON.stringify({ cmd: 'watchContext' }) + '\n');
        }
    }

    closeDiff(filePath: string, suppressNotification?: boolean): void {
        this.child.stdin!.write(JSON.stringify({ cmd: 'closeDiff', filePath, suppressNotification }) + '\n');
    }

    /** The unconsumed diff report of this kind for this file, if one has arrived (it stays unconsumed). */
    peekDiffOutcome(kind: DiffReport['kind'], filePath: string): DiffReport | undefined {
        return this.diffReports.find(report => report.kind === kind && report.filePath === filePath);
    }

    /** The next unconsumed diff report of this kind for this file. */
    async diffOutcome(kind: DiffReport['kind'], filePath: string, timeoutMs = 30000): Promise<DiffReport> {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const index = this.diffReports.findIndex(report => report.kind === kind && report.filePath === filePath);
            if (index >= 0) {
                return this.diffReports.splice(index, 1)[0];
            }
            const remaining = deadline - Date.now();
            if (remaining <= 0) {
                throw new Error(`No ${kind} answer for ${filePath} within ${timeoutMs} ms; stderr:\n${this.stderr}`);
            }
            await new Promise<void>(resolve => {
                const timer = setTimeout(resolve, remaining);
                this.diffWaiters.push(() => { clearTimeout(timer); resolve(); });
            });
        }
    }

    /** Disconnects the way a CLI does on exit, then makes sure the process is gone. */
    async close(): Promise<void> {
        // A killed probe has a signal code and no exit code; its 'exit' event has already fired.
        if (this.child.exitCode !== null || this.child.signalCode !== null) {
            return;
        }
        const exited = new Promise(resolve => this.child.once('exit', resolve));
        this.child.stdin!.end();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
    }

    kill(): void {
        this.child.kill('SIGKILL');
    }
}
