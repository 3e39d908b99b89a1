import * as fs from 'fs';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { landingWithinRoots, OutsideRootsError, removeFileWithinRoots, writeFileWithinRoots } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
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
    let current: Buffer | undefined;
    try {
        current = await fs.promises.readFile(await landingWithinRoots(restore.file, roots)).catch(() => undefined);
    } catch (error) {
        return outside(error);
    }
    if (!restore.force && (current && BlobStore.hash(current)) !== restore.expected) {
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
