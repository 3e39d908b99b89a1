export const storageUsageServicePath = '/services/ai-cli-core/storage-usage';

/** One store the companion keeps on the backend's disk, and the space it takes. */
export interface StorageUsage {
    /** Which store: `acp-checkpoints`, `agent-tasks`. */
    readonly id: string;
    /** Its name in English (the window shows its own for the ids it knows). */
    readonly label: string;
    readonly path: string;
    /** Bytes of its files, every part included. */
    readonly bytes: number;
    /** The cap it is kept under (bytes), when it has one, and which of its parts the cap counts. */
    readonly limit?: { readonly bytes: number; readonly counts: readonly string[] };
    /** Its parts by name (`blobs`, `git`, `records`), in bytes. */
    readonly parts: readonly { readonly name: string; readonly bytes: number }[];
}

export const StorageUsageService = Symbol('StorageUsageService');
/** The space the companion's stores take on the backend's disk (the status view shows it). */
export interface StorageUsageService {
    usage(): Promise<StorageUsage[]>;
}
