/** Where one install happens, and its limits. The caller removes `staging` whatever happens. */
export interface InstallStep {
    readonly agentId: string;
    /** A fresh private folder for the download; `content` lies in it. */
    readonly staging: string;
    /** What becomes `finalDirectory` once everything succeeded. */
    readonly content: string;
    readonly finalDirectory: string;
    readonly env: NodeJS.ProcessEnv;
    readonly downloadTimeoutMs: number;
    readonly maxDownloadBytes: number;
    readonly toolTimeoutMs: number;
    readonly signal?: AbortSignal;
}
