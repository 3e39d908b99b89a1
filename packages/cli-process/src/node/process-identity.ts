import * as fs from 'fs';
import { isProcessAlive } from './process-liveness';

/**
 * Who a process is, told apart from a later one with the same PID: a PID alone proves nothing, it is reused after
 * a restart, and in another PID namespace (a container) the same number names another process.
 */
export interface ProcessIdentity {
    /** The PID namespace, `pid:[4026531836]`; absent where there is no /proc (macOS). */
    readonly pidNamespace?: string;
    /** The PID inside that namespace. */
    readonly pid: number;
    /** Field 22 of `/proc/<pid>/stat` (clock ticks after boot): a reused PID has another; absent without /proc. */
    readonly startTime?: number;
}

/** What `/proc/<pid>/stat` says about a process that matters to telling processes apart. */
export interface ProcessStat {
    readonly pid: number;
    /** One letter: R, S, D, Z (zombie), X (dead), … */
    readonly state: string;
    /** Field 22: clock ticks after boot. */
    readonly startTime: number;
}

/**
 * Parses one `/proc/<pid>/stat` line. Field 2, the command name, is in parentheses and may itself
 * hold spaces and parentheses (a process can name itself `a) b (c`), so the fields are counted from
 * the last `)`.
 */
export function parseProcessStat(text: string): ProcessStat | undefined {
    const open = text.indexOf(' (');
    const close = text.lastIndexOf(')');
    if (open < 0 || close < open) {
        return undefined;
    }
    const pid = Number(text.slice(0, open));
    // After the name come field 3 (state) onwards: field 22 is the 20th of them.
    const fields = text.slice(close + 1).trim().split(/\s+/);
    const state = fields[0];
    const startTime = Number(fields[19]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || !/^[A-Za-z]$/.test(state ?? '') || !/^\d+$/.test(fields[19] ?? '') || !Number.isSafeInteger(startTime)) {
        return undefined;
    }
    return { pid, state, startTime };
}

/** `/proc/<pid>/stat` parsed, or undefined where there is no such process or no /proc. */
export function readProcessStat(pid: number | 'self'): ProcessStat | undefined {
    try {
        return parseProcessStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
        return undefined;
    }
}

/** This process's PID namespace (`pid:[4026531836]`), or undefined where there is no /proc (macOS). */
export function currentPidNamespace(): string | undefined {
    try {
        return fs.readlinkSync('/proc/self/ns/pid');
    } catch {
        return undefined;
    }
}

/**
 * This process's stat, if the mounted /proc shows this process's PID namespace. A process moved into
 * a new namespace without remounting /proc (`unshare --pid --fork` alone) sees its parent namespace's
 * PIDs there, so /proc/<pid> would describe another process than `process.kill(pid)` reaches.
 */
function ownStat(): ProcessStat | undefined {
    const stat = readProcessStat('self');
    return stat?.pid === process.pid ? stat : undefined;
}

let ownIdentity: ProcessIdentity | undefined;

/** Who this process is (as IDE mode records it in the discovery files it writes); read from /proc once, it never changes. */
export function currentProcessIdentity(): ProcessIdentity {
    return ownIdentity ??= Object.freeze({ pidNamespace: currentPidNamespace(), pid: process.pid, startTime: ownStat()?.startTime });
}

/** What a caller (IDE mode's stale-file cleaner) may ask about processes; {@link SYSTEM_PROCESSES} asks the system, tests give their own. */
export interface ProcessTable {
    /** This process's PID namespace; undefined where there is no /proc. */
    pidNamespace(): string | undefined;
    /**
     * A live process of this PID namespace: undefined when there is none (or only a zombie), and
     * `startTime` undefined when it exists but its start time cannot be read.
     */
    find(pid: number): { readonly startTime?: number } | undefined;
}

export const SYSTEM_PROCESSES: ProcessTable = Object.freeze({
    pidNamespace: currentPidNamespace,
    find(pid: number): { readonly startTime?: number } | undefined {
        if (!isProcessAlive(pid)) {
            return undefined;
        }
        // hidepid, a foreign /proc, or a process that ended between the two looks: alive, start unknown.
        const stat = ownStat() ? readProcessStat(pid) : undefined;
        if (stat?.state === 'Z' || stat?.state === 'X') {
            return undefined;
        }
        return { startTime: stat?.startTime };
    }
});
