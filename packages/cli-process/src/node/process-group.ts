import { ChildProcess, spawn, StdioOptions } from 'child_process';

export interface GroupProcessOptions {
    readonly cwd: string;
    readonly env: NodeJS.ProcessEnv;
    readonly stdio: StdioOptions;
}

/**
 * Starts `command` without a shell (its arguments are never parsed by one), in a process group of
 * its own: the CLIs relaunch themselves as a child process, and stopping one must stop all of it
 * (see {@link signalProcessGroup}).
 */
export function spawnInOwnGroup(command: string, args: readonly string[], options: GroupProcessOptions): ChildProcess {
    return spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: options.stdio, detached: true, shell: false });
}

/** Sends `signal` to the whole process group of a child started by {@link spawnInOwnGroup}; nothing once the group is gone. */
export function signalProcessGroup(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined) {
        return;
    }
    try {
        process.kill(-child.pid, signal);
    } catch {
        // The group is already gone.
    }
}
