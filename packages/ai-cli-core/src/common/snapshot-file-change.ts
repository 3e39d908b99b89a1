/** A file that differs between two snapshots of one folder (see `compareSnapshots`). */
export interface SnapshotFileChange {
    path: string;
    /** Relative to the snapshot's folder, `/`-separated. */
    relativePath: string;
    kind: 'added' | 'modified' | 'deleted';
    /** Blob ids of the content before and after; absent for files over the snapshot size limit. */
    before?: string;
    after?: string;
    /** The file's permission bits before, restored with its content. */
    mode?: number;
    /** Both sides were recorded, so a diff can be shown and the change reverted. */
    reviewable: boolean;
    binary: boolean;
    /**
     * Why the file could not be read at one end (a named pipe, a file that may not be read): it is listed as
     * changed, with neither side kept, and cannot be restored.
     */
    unreadable?: string;
}
