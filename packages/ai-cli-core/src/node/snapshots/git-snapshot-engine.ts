import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { readFileBounded } from '@theia-cli-companion/safe-files/lib/node';
import type { SnapshotFileChange } from '../../common/snapshot-file-change';
import { BlobStore } from './blob-store';
import { indexHasSkipBits } from './index-skip-bits';
import { PrivateGitRepository } from './private-git-repository';
import { addIgnoringErrors, findUnreadablePaths, unreadableChanges, UnreadablePath } from './unreadable-paths';

/** A folder recorded as a git tree in our private repository for it. */
export interface GitTreeSnapshot {
    kind: 'git';
    root: string;
    takenAt: number;
    tree: string;
    gitDir: string;
    /** Git records every file it does not ignore: there is no cap. */
    truncated: false;
    /** What git could not add (the tree keeps the index's earlier entry for it): listed as changed, not restorable. */
    unreadable?: UnreadablePath[];
}

export interface GitSnapshotOptions {
    /** Patterns (gitignore syntax) never recorded, besides what the folder's `.gitignore` files ignore. */
    excludes: readonly string[];
    /** Globs of ignored files to record anyway (a `.env`, generated sources). */
    include: readonly string[];
    /**
     * Called once git holds the folder's contents, before it writes their tree (which reads only its index):
     * a caller may let the folder change from then on, a turn's agent start working. Not called when the snapshot fails.
     */
    recorded?: () => void;
}

/** Where a folder that is a repository keeps its objects and index: read, never written. */
export interface FolderRepository {
    objects: string;
    index?: string;
}

/**
 * Snapshots by git itself: a private git directory per folder (under `dir`) with the folder as work tree.
 * The first snapshot starts from a copy of the folder's own index where it has one (and borrows its object
 * store as an alternate), so it costs about what `git status` does; later ones hash only what changed.
 */
export class GitSnapshotEngine {

    /** One git command sequence per private directory at a time (they share an index). */
    protected readonly queues = new Map<string, Promise<unknown>>();

    constructor(readonly dir: string) { }

    async take(root: string, options: GitSnapshotOptions): Promise<GitTreeSnapshot> {
        const gitDir = path.join(this.dir, crypto.createHash('sha256').update(root).digest('hex').slice(0, 32));
        return this.serialized(gitDir, async () => {
            const takenAt = Date.now();
            const repository = new PrivateGitRepository(gitDir, root);
            const own = await findFolderRepository(root);
            await repository.prepare(own?.objects, options.excludes);
            const seeded = await this.seedIndex(repository, own);
            let unreadable: UnreadablePath[];
            try {
                unreadable = await this.addAll(repository, options.include);
            } catch (error) {
                if (!seeded) {
                    throw error;
                }
                // The folder's index may use what our directory lacks (a split index, a sparse checkout): start from none.
                await fs.promises.rm(repository.indexFile, { force: true });
                unreadable = await this.addAll(repository, options.include);
            }
            options.recorded?.();
            const tree = (await repository.git(['write-tree'])).toString('latin1').trim();
            return { kind: 'git', root, takenAt, tree, gitDir, truncated: false, ...(unreadable.length ? { unreadable } : {}) };
        });
    }

    /** The regular files that differ between two snapshots of one folder, their contents put into `blobs` (up to `maxFileBytes`). */
    async compare(before: GitTreeSnapshot, after: GitTreeSnapshot, blobs: BlobStore, maxFileBytes: number): Promise<SnapshotFileChange[]> {
        const repository = new PrivateGitRepository(after.gitDir, after.root);
        const raw = await this.serialized(after.gitDir, () => repository.git(['diff-tree', '-r', '-z', '--no-renames', '--raw', before.tree, after.tree]));
        const unreadable = await this.serialized(after.gitDir, () => unreadableChanges(repository, after.root, before, after));
        const entries = parseRawDiff(raw).filter(entry => !unreadable.paths.has(entry.path));
        const ids = [...new Set(entries.flatMap(entry => [entry.before?.id, entry.after?.id]).filter((id): id is string => !!id))];
        const stored = new Map<string, { sha?: string; binary: boolean }>();
        await this.serialized(after.gitDir, () => repository.readBlobs(ids, maxFileBytes, async (id, content) => {
            stored.set(id, content ? { sha: await blobs.put(content), binary: content.subarray(0, 8000).includes(0) } : { binary: false });
        }));
        const changes: SnapshotFileChange[] = [];
        for (const entry of entries) {
            const was = entry.before && stored.get(entry.before.id);
            const now = entry.after && stored.get(entry.after.id);
            const common = {
                path: path.join(after.root, ...entry.path.split('/')),
                relativePath: entry.path,
                reviewable: (!was || !!was.sha) && (!now || !!now.sha),
                binary: !!(was?.binary || now?.binary)
            };
            if (!was && now) {
                changes.push({ ...common, kind: 'added', after: now.sha });
            } else if (was && !now) {
                changes.push({ ...common, kind: 'deleted', before: was.sha, mode: entry.before!.mode });
            } else if (was && now) {
                // Git keeps only 644 or 755: a file changed in place still has its own bits (0640, say), which a revert keeps.
                const mode = await fs.promises.lstat(common.path).then(stat => stat.isFile() ? stat.mode & 0o7777 : entry.before!.mode, () => entry.before!.mode);
                changes.push({ ...common, kind: 'modified', before: was.sha, after: now.sha, mode });
            }
        }
        changes.push(...unreadable.changes);
        return changes.sort((a, b) => a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0);
    }

    /**
     * Removes from every private directory the objects no snapshot still needs: kept are the trees in `keep`
     * (snapshots a running task or turn will be compared from) and what the index holds (the last snapshot of
     * its folder, which the next one starts from). Each directory is pruned between its snapshots, never
     * during one. The folders' own repositories (alternates) are never touched.
     */
    async prune(keep: readonly GitTreeSnapshot[]): Promise<void> {
        const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
        for (const name of names.filter(candidate => /^[0-9a-f]{32}$/.test(candidate))) {
            const gitDir = path.join(this.dir, name);
            await this.serialized(gitDir, async () => {
                if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
                    return;
                }
                // No work tree is needed (the folder may be gone): git runs in its own directory.
                const repository = new PrivateGitRepository(gitDir, gitDir);
                const trees = [...new Set(keep.filter(snapshot => snapshot.gitDir === gitDir).map(snapshot => snapshot.tree))];
                // A tree that is gone already would stop `git prune`: only those still there are named.
                const known = trees.length
                    ? (await repository.git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], trees.join('\n') + '\n')).toString('latin1').split('\n')
                        .filter(line => line.endsWith(' tree')).map(line => line.split(' ')[0])
                    : [];
                await repository.git(['prune', '--expire=now', '--', ...known]);
            });
        }
    }

    protected async seedIndex(repository: PrivateGitRepository, own: FolderRepository | undefined): Promise<boolean> {
        if (!own?.index || fs.existsSync(repository.indexFile)) {
            return false;
        }
        try {
            // Git trusts an entry whose file is older than the index: the copy keeps the original's time, so a file
            // written in the same instant as the folder's index is still re-hashed. Taken before the content is read,
            // it is never newer than what was copied (a racing rewrite makes git re-hash more, never trust more).
            const { atime, mtime } = await fs.promises.stat(own.index);
            const index = await fs.promises.readFile(own.index);
            await fs.promises.writeFile(repository.indexFile, index, { mode: 0o600, flag: 'wx' });
            await fs.promises.utimes(repository.indexFile, atime, mtime);
            if (indexHasSkipBits(index) !== false) {
                await this.clearSkipBits(repository);
            }
            return true;
        } catch {
            await fs.promises.rm(repository.indexFile, { force: true });
            return false;
        }
    }

    /**
     * Entries the folder's index marks assume-unchanged or skip-worktree would never be read again by `git add`:
     * an agent's change to such a file would go unseen. Ours are cleared (`ls-files -v` tags them lowercase, or `S`);
     * asked only when the index itself does not already say that it has none.
     */
    protected async clearSkipBits(repository: PrivateGitRepository): Promise<void> {
        const flagged = (await repository.git(['ls-files', '-v', '-z'])).toString('utf8').split('\0')
            .filter(entry => /^([a-z]|S) /.test(entry)).map(entry => entry.slice(2));
        if (flagged.length) {
            // One mark per run: update-index applies only the first of them to each path.
            for (const mark of ['--no-assume-unchanged', '--no-skip-worktree']) {
                await repository.git(['update-index', mark, '-z', '--stdin'], flagged.join('\0') + '\0');
            }
        }
    }

    /**
     * Adds what the folder holds now. A partial add (a recorded file became a pipe or may not be read) keeps
     * what git added: the paths it could not add are returned, to be listed as changed and not restorable.
     */
    protected async addAll(repository: PrivateGitRepository, include: readonly string[]): Promise<UnreadablePath[]> {
        let partial = await addIgnoringErrors(repository, ['add', '--all', '--ignore-errors', '--', '.']);
        if (include.length) {
            const ignored = await repository.git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...include.map(glob => `:(glob)${glob}`)]);
            if (ignored.length) {
                partial = await addIgnoringErrors(repository, ['add', '--force', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], ignored) || partial;
            }
        }
        return partial ? findUnreadablePaths(repository) : [];
    }

    protected serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
        const next = (this.queues.get(key) ?? Promise.resolve()).then(work, work);
        const settled = next.then(() => undefined, () => undefined);
        this.queues.set(key, settled);
        void settled.then(() => this.queues.get(key) === settled && this.queues.delete(key));
        return next;
    }
}

interface RawDiffEntry {
    path: string;
    before?: { id: string; mode: number };
    after?: { id: string; mode: number };
}

const ZERO_ID = /^0+$/;

/** `git diff-tree -r -z --raw`: `:<mode> <mode> <id> <id> <status>\0<path>\0` per file; links and submodules are not files. */
export function parseRawDiff(raw: Buffer): RawDiffEntry[] {
    const fields = raw.toString('utf8').split('\0');
    const entries: RawDiffEntry[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
        const [oldMode, newMode, oldId, newId] = fields[i].replace(/^:/, '').split(' ');
        const side = (mode: string, id: string) => /^100[67][0-7]{2}$/.test(mode) && !ZERO_ID.test(id) ? { id, mode: parseInt(mode, 8) & 0o777 } : undefined;
        const entry = { path: fields[i + 1], before: side(oldMode, oldId), after: side(newMode, newId) };
        if (entry.before || entry.after) {
            entries.push(entry);
        }
    }
    return entries;
}

/**
 * The repository a folder is the top of, found without running git in it (its config is not ours to
 * obey): `.git` as a directory, or as a file naming one (worktrees, submodules), with `commondir` followed.
 */
export async function findFolderRepository(root: string): Promise<FolderRepository | undefined> {
    const dotGit = path.join(root, '.git');
    const stat = await fs.promises.lstat(dotGit).catch(() => undefined);
    let gitDir: string | undefined;
    if (stat?.isDirectory()) {
        gitDir = dotGit;
    } else if (stat?.isFile()) {
        const pointer = /^gitdir: (.+)$/m.exec(await readSmallText(dotGit) ?? '')?.[1].trim();
        gitDir = pointer ? path.resolve(root, pointer) : undefined;
    }
    if (!gitDir) {
        return undefined;
    }
    const commondir = await readSmallText(path.join(gitDir, 'commondir'));
    const common = commondir !== undefined ? path.resolve(gitDir, commondir.trim()) : gitDir;
    const objects = path.join(common, 'objects');
    const usable = (candidate: string) => !/[\n\r]/.test(candidate) && path.isAbsolute(candidate);
    if (!usable(objects) || !(await fs.promises.stat(objects).catch(() => undefined))?.isDirectory()) {
        return undefined;
    }
    const index = path.join(gitDir, 'index');
    return { objects, index: (await fs.promises.lstat(index).catch(() => undefined))?.isFile() ? index : undefined };
}

/** A pointer file of a repository (`.git`, `commondir`): a regular file of at most 4 KiB, never a link, a pipe or a device. */
async function readSmallText(file: string): Promise<string | undefined> {
    const read = await readFileBounded(file, { maxBytes: 4096 });
    return read.kind === 'content' ? read.content.toString('utf8') : undefined;
}
