import { ChildProcess, fork, spawn } from 'child_process';
import * as path from 'path';
import { SpawnHelperRequest, SpawnHelperResponse, SpawnHelperResponseSchema } from './spawn-helper-protocol';

/** What a command run through `SpawnHelper` did. */
export interface SpawnedCommandResult {
    /** Null when a signal ended it. */
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: Buffer;
    stderr: Buffer;
}

export interface SpawnedCommand {
    /** An absolute path: nothing is looked up on a PATH. */
    command: string;
    args: readonly string[];
    cwd?: string;
    /** The command's whole environment. */
    env: NodeJS.ProcessEnv;
    input?: string | Buffer;
}

const MAX_DEATHS = 3;

interface Pending {
    resolve(result: SpawnedCommandResult): void;
    reject(error: Error): void;
}

/**
 * Runs short commands (git) from a small helper process instead of this one. On Linux, Node's `spawn` forks
 * the whole process first, and a fork copies its page tables: measured with Node 20, ~2 ms from a bare Node
 * process, ~40 ms from one holding 500 MB, which a Theia backend with agents open can. The helper stays
 * small, so each command costs what it would from a bare process. Started on first use. When it cannot be
 * started (its script is not where the package puts it, a bundled backend that left it out) or has died
 * three times, commands run from this process as before.
 */
export class SpawnHelper {

    protected helper?: ChildProcess;
    /** Helpers that died: after `MAX_DEATHS`, commands run from this process. */
    protected deaths = 0;
    protected readonly pending = new Map<number, Pending>();
    protected nextId = 0;

    protected readonly script: string | undefined;

    /** `script`: the helper's entry, by default the package's `spawn-helper-main.js`; false runs every command from this process. */
    constructor(script?: string | false) {
        this.script = script === false ? undefined : script ?? resolveHelperScript();
    }

    /** The helper's PID while it runs. */
    get pid(): number | undefined {
        return this.helper?.pid;
    }

    run(command: SpawnedCommand): Promise<SpawnedCommandResult> {
        if (!path.isAbsolute(command.command)) {
            return Promise.reject(new Error(`not an absolute path: ${command.command}`));
        }
        const helper = this.started();
        if (!helper) {
            return runHere(command);
        }
        const id = this.nextId++;
        const request: SpawnHelperRequest = {
            id, command: command.command, args: [...command.args], cwd: command.cwd, env: definedOnly(command.env),
            ...(command.input !== undefined ? { input: typeof command.input === 'string' ? Buffer.from(command.input) : command.input } : {})
        };
        return new Promise<SpawnedCommandResult>((resolve, reject) => {
            this.pending.set(id, { resolve, reject });
            helper.channel?.ref();
            helper.send(request, error => error && this.settle(id, error));
        });
    }

    /** Stops the helper (what it still runs is killed, its callers told so). */
    dispose(): void {
        const helper = this.helper;
        this.helper = undefined;
        helper?.kill('SIGKILL');
        this.failAll(new Error('the spawn helper was stopped'));
    }

    protected started(): ChildProcess | undefined {
        if (this.helper || !this.script || this.deaths >= MAX_DEATHS) {
            return this.helper;
        }
        let helper: ChildProcess;
        try {
            // No execArgv: an inspector or loader flag of the backend is not the helper's.
            helper = fork(this.script, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] });
        } catch {
            return undefined;
        }
        helper.unref();
        helper.channel?.unref();
        helper.on('message', message => this.received(message));
        helper.on('error', error => this.gone(helper, error));
        helper.on('exit', (code, signal) => this.gone(helper, new Error(`the spawn helper exited (${signal ?? `exit ${code}`})`)));
        this.helper = helper;
        return helper;
    }

    protected received(message: unknown): void {
        const parsed = SpawnHelperResponseSchema.safeParse(message);
        if (!parsed.success) {
            return;
        }
        this.settle(parsed.data.id, undefined, parsed.data);
    }

    protected settle(id: number, error: Error | undefined, response?: SpawnHelperResponse): void {
        const pending = this.pending.get(id);
        if (!pending) {
            return;
        }
        this.pending.delete(id);
        if (!this.pending.size) {
            // Idle, the helper does not keep this process alive.
            this.helper?.channel?.unref();
        }
        if (error) {
            pending.reject(error);
        } else if (response && 'error' in response) {
            pending.reject(new Error(response.error));
        } else if (response) {
            pending.resolve({ code: response.code, signal: response.signal as NodeJS.Signals | null, stdout: asBuffer(response.stdout), stderr: asBuffer(response.stderr) });
        }
    }

    protected gone(helper: ChildProcess, error: Error): void {
        if (this.helper === helper) {
            this.helper = undefined;
            // The next command starts a new one, unless they keep dying.
            this.deaths++;
            this.failAll(error);
        }
    }

    protected failAll(error: Error): void {
        [...this.pending.keys()].forEach(id => this.settle(id, error));
    }
}

function resolveHelperScript(): string | undefined {
    try {
        return require.resolve('@theia-cli-companion/cli-process/lib/node/spawn-helper-main.js');
    } catch {
        return undefined;
    }
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
    return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function asBuffer(bytes: Uint8Array): Buffer {
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The same command from this process. */
function runHere(command: SpawnedCommand): Promise<SpawnedCommandResult> {
    return new Promise((resolve, reject) => {
        const child = spawn(command.command, [...command.args], { env: command.env, cwd: command.cwd, stdio: ['pipe', 'pipe', 'pipe'], shell: false });
        const stdout: Buffer[] = [];
        const stderr: Buffer[] = [];
        child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
        child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
        child.on('error', reject);
        child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }));
        child.stdin.on('error', () => undefined);
        child.stdin.end(command.input);
    });
}
