import * as fs from 'fs';
import * as path from 'path';
import { readFileBounded } from '@theia-cli-companion/safe-files/lib/node';
import type { SnapshotFileChange } from '../../common/snapshot-file-change';
import { BlobStore } from './blob-store';

export interface SnapshotEntry {
    size: number;
    mtimeMs: number;
    mode: number;
    /** The content's blob; absent for files over the size limit (listed as changed, not reviewable). */
    sha?: string;
    binary?: boolean;
    /** Why it could not be read (a named pipe where a file was, a file that may not be read): listed as changed, not restorable. */
    unreadable?: string;
}

/** The regular files under a folder when a task started or ended, by path relative to it (`/`-separated), read one by one. */
export interface FileTreeSnapshot {
    kind: 'files';
    root: string;
    takenAt: number;
    /** A Map: a file may be named `__proto__` or `constructor`. */
    files: Map<string, SnapshotEntry>;
    /** More files than the limit: the rest were not recorded, their changes will not be listed. */
    truncated: boolean;
}

export interface SnapshotLimits {
    maxFiles: number;
    maxFileBytes: number;
    /** Directory names never descended into. */
    excludeDirectories: readonly string[];
}

export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = {
    maxFiles: 20000,
    maxFileBytes: 1024 * 1024,
    excludeDirectories: ['.git', 'node_modules']
};

/** A file whose mtime is this close to the previous snapshot may have changed again within the same tick: hash it again. */
const RACY_MARGIN_MS = 1000;
const PARALLEL_READS = 16;

/**
 * Records a folder's files into the blob store, so what a task changed can be shown and reverted.
 * A file whose size and mtime match `previous` (and is not racy) reuses its hash without a read.
 */
export async function takeSnapshot(root: string, blobs: BlobStore, limits: SnapshotLimits, previous?: FileTreeSnapshot): Promise<FileTreeSnapshot> {
    const takenAt = Date.now();
    const found: { relative: string; stat: fs.Stats }[] = [];
    let truncated = false;
    const excluded = new Set(limits.excludeDirectories);
    const walk = async (dir: string): Promise<void> => {
        const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [] as fs.Dirent[]);
        for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
            if (truncated) {
                return;
            }
            const full = path.join(dir, entry.name);
            if (entry.isDirectory() && !excluded.has(entry.name)) {
                await walk(full);
            } else if (entry.isFile() || (!entry.isDirectory() && !entry.isSymbolicLink())) {
                if (found.length >= limits.maxFiles) {
                    truncated = true;
                    return;
                }
                const relative = path.relative(root, full).split(path.sep).join('/');
                const stat = await fs.promises.lstat(full).catch(() => undefined);
                // A pipe, socket or device is never read; it is listed only where a file was (a new pipe is no file).
                if (stat?.isFile() || (stat && !stat.isDirectory() && !stat.isSymbolicLink() && previous?.files.has(relative))) {
                    found.push({ relative, stat });
                }
            }
        }
    };
    await walk(root);
    const files = new Map<string, SnapshotEntry>();
    for (let i = 0; i < found.length; i += PARALLEL_READS) {
        await Promise.all(found.slice(i, i + PARALLEL_READS).map(async ({ relative, stat }) => {
            const entry = await snapshotEntry(path.join(root, relative), stat, blobs, limits, previous?.files.get(relative), previous?.takenAt);
            if (entry) {
                files.set(relative, entry);
            }
        }));
    }
    return { kind: 'files', root, takenAt, files, truncated };
}

async function snapshotEntry(
    file: string, stat: fs.Stats, blobs: BlobStore, limits: SnapshotLimits, known: SnapshotEntry | undefined, knownAt: number | undefined
): Promise<SnapshotEntry | undefined> {
    const base = { size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777 };
    if (!stat.isFile()) {
        return { ...base, unreadable: `it is now ${stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : 'a device'}, which is never read` };
    }
    if (known && !known.unreadable && knownAt !== undefined && known.size === stat.size && known.mtimeMs === stat.mtimeMs && stat.mtimeMs < knownAt - RACY_MARGIN_MS
        && (!known.sha || await blobs.has(known.sha))) {
        return { ...base, sha: known.sha, binary: known.binary };
    }
    if (stat.size > limits.maxFileBytes) {
        return base;
    }
    // The file was a regular one when listed: if it became a pipe or a link since, it is not read (nor followed).
    const read = await readFileBounded(file, { maxBytes: limits.maxFileBytes });
    if (read.kind === 'unreadable' && read.cause === 'too-large') {
        return base;
    }
    if (read.kind === 'unreadable' && read.cause === 'error') {
        return { ...base, unreadable: `it ${read.reason}` };
    }
    if (read.kind !== 'content') {
        return undefined;
    }
    const { content } = read;
    return { ...base, sha: await blobs.put(content), binary: content.subarray(0, 8000).includes(0) };
}

/** The files that differ between two snapshots of the same folder, by path. */
export function compareSnapshots(before: FileTreeSnapshot, after: FileTreeSnapshot): SnapshotFileChange[] {
    const changes: SnapshotFileChange[] = [];
    const paths = new Set([...before.files.keys(), ...after.files.keys()]);
    for (const relative of [...paths].sort()) {
        const was = before.files.get(relative);
        const now = after.files.get(relative);
        const absolute = path.join(before.root, ...relative.split('/'));
        const reviewable = (!was || !!was.sha) && (!now || !!now.sha);
        const binary = !!(was?.binary || now?.binary);
        if (was?.unreadable || now?.unreadable) {
            // Neither side is kept: listed as changed, not restorable (unless it could not be read at both ends alike).
            if (was?.unreadable !== now?.unreadable) {
                const kind = !was ? 'added' : !now ? 'deleted' : 'modified';
                const unreadable = now?.unreadable ?? `it could not be read at the earlier snapshot (${was!.unreadable})`;
                changes.push({ path: absolute, relativePath: relative, kind, reviewable: false, binary: false, unreadable });
            }
        } else if (!was && now) {
            changes.push({ path: absolute, relativePath: relative, kind: 'added', after: now.sha, reviewable, binary });
        } else if (was && !now) {
            changes.push({ path: absolute, relativePath: relative, kind: 'deleted', before: was.sha, mode: was.mode, reviewable, binary });
        } else if (was && now && (was.sha !== now.sha || was.size !== now.size || (!was.sha && was.mtimeMs !== now.mtimeMs))) {
            changes.push({ path: absolute, relativePath: relative, kind: 'modified', before: was.sha, after: now.sha, mode: was.mode, reviewable, binary });
        }
    }
    return changes;
}
