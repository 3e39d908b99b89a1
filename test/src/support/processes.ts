import * as fs from 'fs';

/** PIDs of every live descendant of `pid`, read from /proc (children of children included). */
export function descendantsOf(pid: number): number[] {
    const parents = new Map<number, number>();
    for (const entry of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) {
            continue;
        }
        try {
            const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
            // The command name may contain spaces and parentheses: fields start after the last ')'.
            const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
            parents.set(Number(entry), ppid);
        } catch {
            // The process ended while we looked.
        }
    }
    const result: number[] = [];
    const queue = [pid];
    while (queue.length) {
        const parent = queue.shift()!;
        for (const [child, ppid] of parents) {
            if (ppid === parent) {
                result.push(child);
                queue.push(child);
            }
        }
    }
    return result;
}

/** The command line of `pid` (arguments joined by spaces); empty when it is gone. */
export function readCommandLine(pid: number): string {
    try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
        return '';
    }
}

/** The TCP ports `pid` listens on (IPv4 and IPv6), read from /proc: its socket inodes matched against the LISTEN rows. */
export function listeningPorts(pid: number): number[] {
    const inodes = new Set<string>();
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        const target = (() => {
            try {
                return fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
            } catch {
                return '';
            }
        })();
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode) {
            inodes.add(inode);
        }
    }
    const LISTEN = '0A';
    return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap(table => fs.readFileSync(table, 'utf8').split('\n').slice(1))
        .map(row => row.trim().split(/\s+/))
        .filter(columns => columns[3] === LISTEN && inodes.has(columns[9]))
        .map(columns => parseInt(columns[1].split(':').pop()!, 16));
}

export function isAlive(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch {
        return false;
    }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (isAlive(pid) && !isZombie(pid)) {
        if (Date.now() > deadline) {
            return false;
        }
        await new Promise(resolve => setTimeout(resolve, 25));
    }
    return true;
}

function isZombie(pid: number): boolean {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    } catch {
        return true;
    }
}

/** Kills `pid` and everything it started, by PID. */
export function killTree(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
    const tree = [pid, ...descendantsOf(pid)];
    for (const member of tree) {
        try {
            process.kill(member, signal);
        } catch {
            // Already gone.
        }
    }
}

export async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20000, intervalMs = 50): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const value = await probe();
        if (value) {
            return value;
        }
        if (Date.now() > deadline) {
            throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
        }
        await new Promise(resolve => setTimeout(resolve, intervalMs));
    }
}

/**
 * For what must not happen: fails as soon as `happened` names something that did, or resolves when
 * `forMs` has passed without it (the wait is the point: nothing can signal an absence).
 */
export async function never(happened: () => string | undefined | false | Promise<string | undefined | false>, what: string, forMs: number, intervalMs = 100): Promise<void> {
    const deadline = Date.now() + forMs;
    for (;;) {
        const seen = await happened();
        if (seen) {
            throw new Error(`${what}, yet ${seen}`);
        }
        if (Date.now() > deadline) {
            return;
        }
        await new Promise(resolve => setTimeout(resolve, intervalMs));
    }
}

const tracked = new Set<number>();

/** Remembers a process a test started, so the suite's last hook can stop it should the test not. */
export function trackProcess(pid: number): void {
    tracked.add(pid);
}

/** Stops every tracked process that is still running, with all its descendants. */
export function stopTrackedProcesses(): number {
    let stopped = 0;
    for (const pid of tracked) {
        if (isAlive(pid)) {
            killTree(pid);
            stopped++;
        }
    }
    tracked.clear();
    return stopped;
}
