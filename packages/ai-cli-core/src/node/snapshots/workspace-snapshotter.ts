import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import type { SnapshotFileChange } from '../../common/snapshot-file-change';
import { BlobStore } from './blob-store';
import { GitSnapshotEngine, GitTreeSnapshot } from './git-snapshot-engine';
import { PrivateGitRepository } from './private-git-repository';
import { compareSnapshots, DEFAULT_SNAPSHOT_LIMITS, FileTreeSnapshot, SnapshotLimits, takeSnapshot } from './workspace-snapshot';

/** A folder as it was at one moment: recorded by git where it is installed, else file by file. */
export type WorkspaceSnapshot = GitTreeSnapshot | FileTreeSnapshot;

export interface WorkspaceSnapshotterOptions {
    /** Where the private git directories go (one per folder). */
    gitDir: string;
    blobs: BlobStore;
    limits?: SnapshotLimits;
    /** Record file by file even where git is installed (the fallback, and what tests compare against). */
    withoutGit?: boolean;
    warn(message: string): void;
}

/**
 * Takes and compares snapshots of folders. Git records them where it is installed: no file-count cap,
 * ignored files follow the folder's `.gitignore` files (plus `node_modules`), and a snapshot costs about
 * a `git status`. Without git, files are read one by one (capped by {@link SnapshotLimits.maxFiles}).
 * Snapshots of one folder are taken one at a time, each starting from the one before.
 */
export class WorkspaceSnapshotter {

    protected readonly git: GitSnapshotEngine;
    protected readonly limits: SnapshotLimits;
    /** The last snapshot of each folder: the file engine's next one re-reads only files whose size or mtime changed. */
    protected readonly last = new Map<string, Promise<WorkspaceSnapshot | undefined>>();

    constructor(protected readonly options: WorkspaceSnapshotterOptions) {
        this.git = new GitSnapshotEngine(options.gitDir);
        this.limits = options.limits ?? DEFAULT_SNAPSHOT_LIMITS;
    }

    get blobs(): BlobStore {
        return this.options.blobs;
    }

    /**
     * The folder now; `include` names ignored files to record anyway (globs, used where git records). `recorded`
     * is called as soon as the folder's contents are kept, where git records them before writing their tree:
     * from then on the folder may change without changing this snapshot. Not called when it fails.
     */
    take(root: string, include: readonly string[] = [], recorded?: () => void): Promise<WorkspaceSnapshot> {
        const previous = this.last.get(root) ?? Promise.resolve(undefined);
        const next = previous.then(known => this.takeAfter(root, include, known, recorded));
        this.last.set(root, next.then(taken => taken, () => undefined));
        return next;
    }

    protected async takeAfter(root: string, include: readonly string[], known: WorkspaceSnapshot | undefined, recorded?: () => void): Promise<WorkspaceSnapshot> {
        if (!this.options.withoutGit && known?.kind !== 'files' && await PrivateGitRepository.available()) {
            let told = false;
            const tell = () => {
                told = true;
                recorded?.();
            };
            try {
                return await this.git.take(root, { excludes: this.limits.excludeDirectories.map(name => `${name}/`), include, recorded: tell });
            } catch (error) {
                if (told) {
                    // The caller let the folder change already: a file-by-file snapshot now could hold those changes.
                    throw error;
                }
                this.options.warn(`Recording ${root} with git failed, reading its files instead: ${describeError(error)}`);
            }
        }
        const snapshot = await takeSnapshot(root, this.options.blobs, this.limits, known?.kind === 'files' ? known : undefined);
        recorded?.();
        return snapshot;
    }

    /** What changed from `before` to `after` (two snapshots of one folder), both sides' contents in the blob store. */
    async compare(before: WorkspaceSnapshot, after: WorkspaceSnapshot): Promise<SnapshotFileChange[]> {
        if (before.kind === 'git' && after.kind === 'git') {
            return this.git.compare(before, after, this.options.blobs, this.limits.maxFileBytes);
        }
        if (before.kind === 'files' && after.kind === 'files') {
            return compareSnapshots(before, after);
        }
        throw new Error('the folder was recorded by git at one end and file by file at the other');
    }

    /** Resolves once no snapshot is being taken (before the store's folder goes, say). */
    async settled(): Promise<void> {
        await Promise.all(this.last.values());
    }

    /**
     * Prunes the private git directories: what `keep` (snapshots still to be compared from) and each folder's
     * last snapshot need stays, every other object goes. Blobs are the caller's to collect ({@link keptBlobs}).
     */
    async prune(keep: readonly (WorkspaceSnapshot | undefined)[]): Promise<void> {
        await this.git.prune(keep.filter((snapshot): snapshot is GitTreeSnapshot => snapshot?.kind === 'git'));
    }

    /** The blobs the kept file-by-file snapshots refer to (git snapshots keep theirs in git). */
    async keptBlobs(): Promise<Set<string>> {
        const keep = new Set<string>();
        for (const snapshot of await Promise.all(this.last.values())) {
            if (snapshot?.kind === 'files') {
                snapshot.files.forEach(entry => entry.sha && keep.add(entry.sha));
            }
        }
        return keep;
    }
}
