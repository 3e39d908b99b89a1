import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { OutsideRootsError, readFileBounded, removeFileWithinRoots, writeFileWithinRoots } from '@theia-cli-companion/safe-files/lib/node';
import { BlobStore } from './blob-store';

export type SnapshotRestoreResult =
    | { kind: 'restored' }
    /** The file no longer holds what was expected: someone changed it since; nothing was written. */
    | { kind: 'changed-since' }
    | { kind: 'not-restorable'; reason: string };

export interface SnapshotRestore {
    file: string;
    /** The content to put back (a blob id, with the permission bits), or undefined to remove the file. */
    target: { sha: string; mode?: number } | undefined;
    /** What the file must hold now (a blob id), undefined for "no file"; not checked when `force`. */
    expected: string | undefined;
    force: boolean;
}

/**
 * Puts a file back to recorded content, only inside `roots`. A folder on the way may have been swapped
 * for a link since the snapshot (a checkout, another agent): the file is judged where it lands now, and
 * written or removed only inside the roots, checked again by the write itself immediately before it
 * renames the new content into place.
 */
export async function restoreSnapshotFile(
    restore: SnapshotRestore, blobs: BlobStore, roots: readonly string[], rootsName = 'the workspace folders'
): Promise<SnapshotRestoreResult> {
    const outside = (error: unknown) => ({ kind: 'not-restorable', reason: `it no longer lies inside ${rootsName} (${describeError(error)})` } as const);
    const current = await currentSnapshotContent(restore.file, roots);
    if (current.kind === 'outside') {
        return outside(current.reason);
    }
    if (!restore.force && (current.kind === 'unreadable' || current.sha !== restore.expected)) {
        return { kind: 'changed-since' };
    }
    try {
        if (!restore.target) {
            await removeFileWithinRoots(restore.file, roots);
        } else {
            const content = await blobs.get(restore.target.sha);
            if (!content) {
                return { kind: 'not-restorable', reason: 'its earlier content is no longer stored' };
            }
            await writeFileWithinRoots(restore.file, content, roots, restore.target.mode ?? 0o644);
        }
    } catch (error) {
        if (error instanceof OutsideRootsError) {
            return outside(error);
        }
        throw error;
    }
    return { kind: 'restored' };
}

/** Files larger than this were never recorded (snapshot limits are far smaller): such a file has changed since, unread. */
export const MAX_SNAPSHOT_COMPARE_BYTES = 64 * 1024 * 1024;

/**
 * What a file holds now, to compare with what a snapshot recorded: its blob id (undefined: no file),
 * read bounded and without following a link in its place (see readFileBounded). A link, a named pipe,
 * a device or a file over {@link MAX_SNAPSHOT_COMPARE_BYTES} is 'unreadable': it has changed since,
 * and is never read. 'outside': the path no longer lands inside the roots.
 */
export async function currentSnapshotContent(
    file: string, roots: readonly string[]
): Promise<{ kind: 'file'; sha: string | undefined } | { kind: 'unreadable'; reason: string } | { kind: 'outside'; reason: string }> {
    const read = await readFileBounded(file, { roots, maxBytes: MAX_SNAPSHOT_COMPARE_BYTES });
    if (read.kind === 'unreadable') {
        return read.cause === 'outside' ? { kind: 'outside', reason: `${file} ${read.reason}` } : { kind: 'unreadable', reason: `${file} ${read.reason}` };
    }
    return { kind: 'file', sha: read.kind === 'content' ? BlobStore.hash(read.content) : undefined };
}
