import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable } from '@theia/core/shared/inversify';
import { TaskTerminalProcess, TaskTerminalProcessFactory } from '@theia/process/lib/node/task-terminal-process';
import { OutputBuffer } from '@theia-cli-companion/acp-client/lib/common';
import { checkInsideRoots, describeRefusal } from '@theia-cli-companion/safe-files/lib/node';
import { findExecutable } from '@theia-cli-companion/cli-process/lib/node';

interface HostedTerminal {
    /** The chat whose agent created it: only that agent may read, wait for, kill or release it. */
    readonly owner: string;
    readonly process: TaskTerminalProcess;
    readonly output: OutputBuffer;
    readonly exited: Promise<acp.TerminalExitStatus>;
    exitStatus?: acp.TerminalExitStatus;
}

/** What the window is told so it can show the command in a terminal the user watches. */
export interface StartedTerminal {
    readonly terminalId: string;
    /** Theia's terminal process id: a terminal widget attaches to it. */
    readonly processId: number;
}

/**
 * An agent's commands, each run in a pseudo-terminal of Theia's process manager: the window
 * attaches a real terminal widget to it (the user watches, and may type), while the agent reads
 * its output here, the last `outputByteLimit` bytes of it (1 MiB when it gives none), with the pty's
 * CRLF turned back into LF. A task-terminal process stays attachable after it exits, so a quick
 * command is still shown. Terminals belong to the chat that created them (`owner`): the ids are
 * Theia's process numbers, easy to guess, and one chat's agent must not read or stop another's.
 */
@injectable()
export class AcpTerminalHost {

    @inject(TaskTerminalProcessFactory) protected readonly processes: TaskTerminalProcessFactory;

    protected readonly terminals = new Map<string, HostedTerminal>();

    /** `cwd` defaults to the session's folder and must lie inside the workspace folders. */
    async create(owner: string, params: acp.CreateTerminalRequest, sessionCwd: string, roots: readonly string[]): Promise<StartedTerminal> {
        const cwd = params.cwd ?? sessionCwd;
        const refusal = describeRefusal(cwd, await checkInsideRoots(cwd, roots), roots);
        if (refusal) {
            throw new Error(`The command's working folder ${cwd} ${refusal}`);
        }
        const env: Record<string, string> = { ...process.env as Record<string, string> };
        (params.env ?? []).forEach(variable => env[variable.name] = variable.value);
        // A pty starts any command and reports a missing one only as an exit: say so up front instead.
        const executable = path.isAbsolute(params.command) || !params.command.includes('/')
            ? await findExecutable(params.command, env.PATH)
            : await findExecutable(path.resolve(cwd, params.command), env.PATH);
        if (!executable) {
            throw new Error(`Could not run ${params.command}: not found on the PATH or not executable`);
        }
        const terminal = this.processes({ command: params.command, args: params.args ?? [], options: { cwd, env } });
        const output = new OutputBuffer(params.outputByteLimit);
        const toLf = crlfToLf();
        terminal.outputStream.on('data', (chunk: string | Buffer) => output.append(toLf(chunk.toString())));
        await new Promise<void>((resolve, reject) => {
            terminal.onStart(() => resolve());
            terminal.onError(error => reject(new Error(`Could not run ${params.command}: ${error.message}`)));
        });
        const hosted: HostedTerminal = {
            owner, process: terminal, output,
            exited: new Promise(resolve => terminal.onExit(event => {
                hosted.exitStatus = { exitCode: event.code ?? null, signal: event.signal ?? null };
                resolve(hosted.exitStatus);
            }))
        };
        const terminalId = `acp-terminal-${terminal.id}`;
        this.terminals.set(terminalId, hosted);
        return { terminalId, processId: terminal.id };
    }

    output(owner: string, params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
        const terminal = this.get(owner, params.terminalId);
        return { output: terminal.output.text, truncated: terminal.output.truncated, exitStatus: terminal.exitStatus ?? null };
    }

    waitForExit(owner: string, params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse> {
        const terminal = this.get(owner, params.terminalId);
        return Promise.race([terminal.exited, new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled'))))]);
    }

    /** Stops the command; its output stays readable until release. */
    kill(owner: string, params: acp.KillTerminalRequest): void {
        const terminal = this.get(owner, params.terminalId);
        if (!terminal.exitStatus) {
            terminal.process.kill();
        }
    }

    /** Stops the command if it still runs and forgets it; the terminal widget keeps what it showed. */
    release(owner: string, params: acp.ReleaseTerminalRequest): void {
        const terminal = this.get(owner, params.terminalId);
        this.terminals.delete(params.terminalId);
        if (!terminal.exitStatus) {
            terminal.process.kill();
        }
    }

    /** The chat closed: its commands stop. */
    releaseAll(owner: string): void {
        [...this.terminals].filter(([, terminal]) => terminal.owner === owner).forEach(([terminalId]) => this.release(owner, { terminalId, sessionId: '' }));
    }

    dispose(): void {
        [...this.terminals].forEach(([terminalId, terminal]) => this.release(terminal.owner, { terminalId, sessionId: '' }));
    }

    /** Another chat's terminal is answered as unknown: its agent learns nothing of it. */
    protected get(owner: string, terminalId: string): HostedTerminal {
        const terminal = this.terminals.get(terminalId);
        if (!terminal || terminal.owner !== owner) {
            throw new Error(`Unknown terminal ${terminalId} (never created, or released)`);
        }
        return terminal;
    }
}

/**
 * The pty's CRLF as LF, across chunks: a chunk may end between the CR and the LF (seen with a
 * megabyte of output), so a trailing CR waits for the next chunk.
 */
function crlfToLf(): (chunk: string) => string {
    let pendingCr = false;
    return chunk => {
        let text = pendingCr ? `\r${chunk}` : chunk;
        pendingCr = text.endsWith('\r');
        if (pendingCr) {
            text = text.slice(0, -1);
        }
        return text.replace(/\r\n/g, '\n');
    };
}
