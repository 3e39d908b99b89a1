import * as fs from 'fs';
import * as path from 'path';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';
import { checkInsideRoots, describeRefusal } from './workspace-boundary';

/** Why a file was not read: each says what to tell the user, none of them is an error of ours. */
export type UnreadableCause =
    /** The path (or the file opened) does not land inside the roots. */
    | 'outside'
    /** A symbolic link in the file's own place, where none is followed (or one swapped in while it was opened). */
    | 'link'
    /** A named pipe, a device, a socket, a folder: never opened for reading. */
    | 'not-regular'
    | 'too-large'
    /** The system refused (permissions, say). */
    | 'error';

/** What {@link readFileBounded} found. `reason` follows the path: "<file> is not a regular file". */
export type BoundedRead =
    | { readonly kind: 'absent' }
    | { readonly kind: 'content'; readonly content: Buffer; readonly mode: number }
    | { readonly kind: 'unreadable'; readonly cause: UnreadableCause; readonly reason: string };

export interface BoundedReadOptions {
    /** More bytes than this and nothing is returned (the file counts as unreadable, 'too-large'). */
    maxBytes: number;
    /** Realpath'd folders the file must land inside, judged before and (where `/proc/self/fd` tells) after opening; undefined: anywhere. */
    roots?: readonly string[];
    /**
     * Whether a symbolic link in the file's own place is followed to where it lands (inside `roots`), as
     * an agent's read is. By default it is not: the file is 'unreadable' ('link'). Links on the folders
     * on the way are followed either way (and judged against `roots`).
     */
    followLink?: boolean;
}

/**
 * Reads a file that an agent or a repository can shape without it being able to stop or swamp the process:
 * opened with `O_NOFOLLOW | O_NONBLOCK` (a named pipe never blocks a thread of the pool), only a regular file
 * (checked with `lstat` before opening, so a device is never opened, and with `fstat` after), at most
 * `maxBytes` (a file that grows while it is read too), and, given `roots`, only where it lands inside
 * them. Never throws for what the file is; `absent` for a missing file (or a file standing in for a folder).
 */
export async function readFileBounded(file: string, options: BoundedReadOptions): Promise<BoundedRead> {
    const { maxBytes, roots, followLink } = options;
    let target = file;
    if (!followLink && ['.', '..'].includes(path.basename(file))) {
        return unreadable('not-regular', 'names a folder');
    }
    if (roots) {
        const judged = followLink ? file : path.dirname(file);
        const verdict = await checkInsideRoots(judged, roots);
        const refusal = describeRefusal(judged, verdict, roots);
        if (refusal || !('realPath' in verdict)) {
            return unreadable('outside', followLink ? refusal ?? 'cannot be checked against the workspace folders' : `is in a folder that ${refusal}`);
        }
        target = followLink ? verdict.realPath : path.join(verdict.realPath, path.basename(file));
    } else if (followLink) {
        try {
            target = await fs.promises.realpath(file);
        } catch (error) {
            return absentOr(error);
        }
    }
    let stat: fs.Stats;
    try {
        stat = await fs.promises.lstat(target);
    } catch (error) {
        return absentOr(error);
    }
    const kind = judgeStat(stat, maxBytes);
    if (kind) {
        return kind;
    }
    let handle: fs.promises.FileHandle;
    try {
        handle = await fs.promises.open(target, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (error) {
        return absentOr(error);
    }
    try {
        if (roots) {
            const opened = await fs.promises.realpath(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
            if (opened !== undefined && !roots.some(root => isPathWithin(opened, root, path.sep))) {
                return unreadable('outside', `lies past a folder that was replaced while it was being read (it now leads to ${opened})`);
            }
        }
        const opened = await handle.stat();
        const changed = judgeStat(opened, maxBytes);
        if (changed) {
            return changed;
        }
        const content = await readAtMost(handle, maxBytes);
        return content ? { kind: 'content', content, mode: opened.mode & 0o7777 } : tooLarge(maxBytes);
    } catch (error) {
        return unreadable('error', `could not be read (${(error as Error).message})`);
    } finally {
        await handle.close();
    }
}

/** Up to `maxBytes` from the handle's start; undefined when there is more (a regular file can grow while it is read). */
async function readAtMost(handle: fs.promises.FileHandle, maxBytes: number): Promise<Buffer | undefined> {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
        const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
        if (bytesRead === 0) {
            return Buffer.concat(chunks, total);
        }
        chunks.push(chunk.subarray(0, bytesRead));
        total += bytesRead;
        if (total > maxBytes) {
            return undefined;
        }
    }
}

function judgeStat(stat: fs.Stats, maxBytes: number): BoundedRead | undefined {
    if (stat.isSymbolicLink()) {
        return unreadable('link', 'is a symbolic link');
    }
    if (!stat.isFile()) {
        return unreadable('not-regular', `is not a regular file (${describeType(stat)})`);
    }
    return stat.size > maxBytes ? tooLarge(maxBytes, stat.size) : undefined;
}

function describeType(stat: fs.Stats): string {
    if (stat.isFIFO()) {
        return 'a named pipe';
    }
    return stat.isDirectory() ? 'a folder' : stat.isSocket() ? 'a socket' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'not a file';
}

function tooLarge(maxBytes: number, size?: number): BoundedRead {
    return unreadable('too-large', `is ${size === undefined ? 'larger than' : `${size} bytes, more than`} the ${maxBytes} bytes read at once`);
}

function unreadable(cause: UnreadableCause, reason: string): BoundedRead {
    return { kind: 'unreadable', cause, reason };
}

function absentOr(error: unknown): BoundedRead {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
        return { kind: 'absent' };
    }
    if (code === 'ELOOP') {
        return unreadable('link', 'became a symbolic link while being read');
    }
    return unreadable('error', `could not be read (${(error as Error).message})`);
}
