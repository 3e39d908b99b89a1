import * as fs from 'fs';
import * as path from 'path';
import type { DiscoveryFileWriter } from '../../common/discovery-files';
import { ProcessTable, SYSTEM_PROCESSES } from '@theia-cli-companion/cli-process/lib/node';
import { temporaryFileWriterPid } from '@theia-cli-companion/safe-files/lib/node';
import { CliFlavour, OwnedDiscoveryFile } from './cli-flavour';

/** One file of ours the scan looked at, and why it went or stayed. */
export interface DiscoveryFileVerdict {
    readonly file: string;
    readonly reason: string;
}

export interface StaleFileScan {
    readonly removed: readonly DiscoveryFileVerdict[];
    /** Files of ours left alone: their writer lives, or nothing proves it dead. */
    readonly kept: readonly DiscoveryFileVerdict[];
}

export interface StaleFileScanOptions {
    /** Ports this backend serves right now: their files stay whatever they record. */
    readonly livePorts?: ReadonlySet<number>;
    readonly processes?: ProcessTable;
    /** For the age of temporary files; `Date.now()` by default. */
    readonly now?: number;
}

/**
 * No live write keeps its temporary file this long: it is created, written, fsync'd and renamed in
 * one go. An older one is what a killed writer left, whatever PID its name carries (that PID may be
 * another namespace's, or reused).
 */
export const ABANDONED_TEMPORARY_FILE_AGE_MS = 10 * 60 * 1000;

/**
 * Finds discovery files that a companion of ours left behind when its process died without
 * cleaning up (kill -9, OOM, container stop) and removes them. A file goes only when its recorded
 * writer is provably gone: same PID namespace as this process, and no process with its PID, or one
 * that started at another time (the PID reused, this backend's own PID included). Files of other
 * IDEs, of older versions that recorded no writer, and of other PID namespaces (containers sharing
 * `~/.qwen`, `~/.claude` or TMPDIR, where the same low PID names a live process) are never touched.
 */
export async function removeStaleDiscoveryFiles(flavour: CliFlavour, options: StaleFileScanOptions = {}): Promise<StaleFileScan> {
    const dir = flavour.discoveryDirectory();
    let names: string[];
    try {
        names = await fs.promises.readdir(dir);
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            return { removed: [], kept: [] };
        }
        throw error;
    }
    const removed: DiscoveryFileVerdict[] = [];
    const kept: DiscoveryFileVerdict[] = [];
    for (const name of names) {
        const file = path.join(dir, name);
        const verdict = await judge(flavour, file, name, options);
        if (verdict?.remove) {
            await fs.promises.rm(file, { force: true });
            removed.push({ file, reason: verdict.reason });
        } else if (verdict) {
            kept.push({ file, reason: verdict.reason });
        }
    }
    return { removed, kept };
}

interface Verdict {
    readonly remove: boolean;
    readonly reason: string;
}
const keep = (reason: string): Verdict => ({ remove: false, reason });
const remove = (reason: string): Verdict => ({ remove: true, reason });

/** Undefined for a file that is not ours to judge at all (another IDE's, unrelated, unreadable). */
async function judge(flavour: CliFlavour, file: string, name: string, options: StaleFileScanOptions): Promise<Verdict | undefined> {
    if (temporaryFileWriterPid(name) !== undefined) {
        return judgeTemporaryFile(file, options.now ?? Date.now());
    }
    const content = await readOwnFile(file);
    const owned = content === undefined ? undefined : flavour.ownedFile(name, content);
    if (!owned) {
        return undefined;
    }
    if (options.livePorts?.has(owned.port)) {
        return keep(`port ${owned.port} is served by this backend`);
    }
    return judgeWriter(owned, options.processes ?? SYSTEM_PROCESSES);
}

function judgeWriter(owned: OwnedDiscoveryFile, processes: ProcessTable): Verdict {
    const writer: DiscoveryFileWriter | undefined = owned.writer;
    if (!writer) {
        return keep(`it does not record its writer (an older version wrote it), so process ${owned.pid} cannot be told from another with that PID`);
    }
    const namespace = processes.pidNamespace();
    if (writer.pidNamespace !== namespace) {
        return keep(`its writer, process ${writer.pid}, is in PID namespace ${writer.pidNamespace ?? '(none recorded)'}, not this one `
            + `(${namespace ?? 'none: no /proc'}), where nothing shows whether it lives`);
    }
    const found = processes.find(writer.pid);
    if (!found) {
        return remove(`its writer, process ${writer.pid}, is gone`);
    }
    if (found.startTime !== undefined && writer.startTime !== undefined && found.startTime !== writer.startTime) {
        return remove(`process ${writer.pid} started at ${found.startTime}, not at ${writer.startTime} as its writer did: the PID was reused after the writer died`);
    }
    return keep(`its writer, process ${writer.pid}, is alive`);
}

/**
 * A temporary file of an atomic write: its name's PID proves nothing (another namespace's, or
 * reused), so only one of ours (this uid, a regular file) that no live write can be holding goes.
 */
async function judgeTemporaryFile(file: string, now: number): Promise<Verdict | undefined> {
    let stat: fs.Stats;
    try {
        stat = await fs.promises.lstat(file);
    } catch {
        return undefined;
    }
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) {
        return keep(`an unfinished write that is not a regular file of this user (uid ${stat.uid})`);
    }
    const age = now - stat.mtimeMs;
    if (age < ABANDONED_TEMPORARY_FILE_AGE_MS) {
        return keep(`an unfinished write ${Math.max(0, Math.round(age / 1000))} s old: it may still be in progress`);
    }
    return remove(`an unfinished write abandoned ${Math.round(age / 60_000)} min ago`);
}

/** Reads a regular file owned by this user; anything else is not ours to judge. */
async function readOwnFile(file: string): Promise<string | undefined> {
    try {
        const stat = await fs.promises.lstat(file);
        const uid = process.getuid?.();
        if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || stat.size > 64 * 1024) {
            return undefined;
        }
        return await fs.promises.readFile(file, 'utf8');
    } catch {
        return undefined;
    }
}
