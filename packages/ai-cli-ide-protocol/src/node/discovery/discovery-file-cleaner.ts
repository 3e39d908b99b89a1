import * as fs from 'fs';
import * as path from 'path';
import { isProcessAlive } from '../process-liveness';
import { temporaryFileWriterPid } from '../private-file';
import { CliFlavour } from './cli-flavour';

export interface StaleFileRemoval {
    readonly file: string;
    readonly reason: string;
}

/**
 * Finds discovery files that a companion of ours left behind when its process died without
 * cleaning up (kill -9, OOM, container stop) and removes them. Files of other IDEs, and files of
 * ours whose process is alive (another Theia backend on this machine), are never touched.
 *
 * `ownPid` is this backend's PID: at start-up it owns no servers yet, so a file carrying it is from
 * an earlier process that had the same PID, which is common in containers.
 */
export async function removeStaleDiscoveryFiles(flavour: CliFlavour, ownPid: number, livePorts: ReadonlySet<number> = new Set()): Promise<StaleFileRemoval[]> {
    const dir = flavour.discoveryDirectory();
    let names: string[];
    try {
        names = await fs.promises.readdir(dir);
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            return [];
        }
        throw error;
    }
    const removed: StaleFileRemoval[] = [];
    for (const name of names) {
        const file = path.join(dir, name);
        const reason = await staleReason(flavour, file, name, ownPid, livePorts);
        if (reason) {
            await fs.promises.rm(file, { force: true });
            removed.push({ file, reason });
        }
    }
    return removed;
}

async function staleReason(flavour: CliFlavour, file: string, name: string, ownPid: number, livePorts: ReadonlySet<number>): Promise<string | undefined> {
    const temporaryWriter = temporaryFileWriterPid(name);
    if (temporaryWriter !== undefined) {
        return isProcessAlive(temporaryWriter) && temporaryWriter !== ownPid ? undefined : `unfinished write of dead process ${temporaryWriter}`;
    }
    const content = await readOwnFile(file);
    if (content === undefined) {
        return undefined;
    }
    const owned = flavour.ownedFile(name, content);
    if (!owned) {
        return undefined;
    }
    if (owned.pid === ownPid) {
        return livePorts.has(owned.port) ? undefined : `left by an earlier process with this backend's PID ${ownPid}`;
    }
    return isProcessAlive(owned.pid) ? undefined : `its process ${owned.pid} is gone`;
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
