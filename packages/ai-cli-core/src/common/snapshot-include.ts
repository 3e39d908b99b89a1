import { z } from 'zod';

export const SNAPSHOT_INCLUDE_PREF = 'aiCliCompanion.snapshots.include';

/**
 * Globs (relative to a workspace folder, git's `:(glob)` syntax) of ignored files that snapshots record
 * anyway. Checked wherever they cross into the backend: no pathspec magic, nothing outside the folder.
 */
export const SnapshotIncludeSchema = z.array(z.string().min(1).max(500)
    .refine(glob => !glob.includes('\0') && !glob.startsWith('/') && !glob.startsWith(':'), 'a pattern must be relative to the folder, with no pathspec magic')
    .refine(glob => !glob.split('/').includes('..'), 'a pattern must not leave the folder')).max(100);
