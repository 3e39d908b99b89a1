import * as fs from 'fs';
import * as path from 'path';
import type { SnapshotFileChange } from '../../common/snapshot-file-change';
import { GitCommandError, PrivateGitRepository } from './private-git-repository';

/** A path of the folder git could not record in a snapshot, relative (`/`-separated; a folder ends with `/`), with why. */
export interface UnreadablePath {
    path: string;
    reason: string;
}

/**
 * Runs a `git add --ignore-errors …`: resolves true when git added what it could and skipped the rest
 * (it exits 1 then: a recorded file became a named pipe or may not be read, a repository with no commit
 * inside the folder). Anything else git fails with is thrown.
 */
export async function addIgnoringErrors(repository: PrivateGitRepository, args: readonly string[], input?: Buffer): Promise<boolean> {
    try {
        await repository.git(args, input);
        return false;
    } catch (error) {
        if (error instanceof GitCommandError && error.code === 1) {
            return true;
        }
        throw error;
    }
}

/**
 * After a partial `git add`: the paths git could not add, found from what git and the folder say, not from
 * git's messages. A recorded path whose file still differs from the index (`diff-files`) and an unrecorded
 * one git does not ignore (`ls-files --others`) is unreadable if it is now a named pipe, a socket or a device
 * (recorded ones only: a new pipe is no file), a regular file that may not be opened, or a repository with
 * no commit (git lists it as a folder). Anything else there changed after git looked: the next snapshot sees it.
 */
export async function findUnreadablePaths(repository: PrivateGitRepository): Promise<UnreadablePath[]> {
    const list = async (args: string[]) => (await repository.git(args)).toString('utf8').split('\0').filter(name => name !== '');
    const recorded = await list(['diff-files', '--name-only', '-z']);
    const unrecorded = await list(['ls-files', '-z', '--others', '--exclude-standard']);
    const found: UnreadablePath[] = [];
    for (const [names, wasRecorded] of [[recorded, true], [unrecorded, false]] as const) {
        for (const name of names) {
            const reason = await whyUnreadable(path.join(repository.workTree, ...name.split('/')), name.endsWith('/'), wasRecorded);
            if (reason) {
                found.push({ path: name, reason });
            }
        }
    }
    return found.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

async function whyUnreadable(file: string, folder: boolean, recorded: boolean): Promise<string | undefined> {
    const stat = await fs.promises.lstat(file).catch(() => undefined);
    if (!stat || stat.isSymbolicLink()) {
        return undefined;
    }
    if (stat.isDirectory()) {
        return folder && fs.existsSync(path.join(file, '.git')) ? 'a repository with no commit inside the folder: its files are not recorded' : undefined;
    }
    if (!stat.isFile()) {
        const what = stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : 'a device';
        return recorded ? `it is now ${what}, which is never read` : undefined;
    }
    try {
        await (await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK)).close();
        return undefined;
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return code === 'ENOENT' || code === 'ELOOP' ? undefined : `it may not be read (${code === 'EACCES' ? 'permission denied' : (error as Error).message})`;
    }
}

/**
 * The changes of paths unreadable at either end of a comparison: the trees hold stale entries for them (what the
 * index had before), so the diff of those paths is dropped and each is listed as changed, with why, and not
 * restorable. A path unreadable at both ends for the same reason is not listed.
 */
export async function unreadableChanges(
    repository: PrivateGitRepository, root: string, before: { tree: string; unreadable?: readonly UnreadablePath[] }, after: { unreadable?: readonly UnreadablePath[] }
): Promise<{ paths: Set<string>; changes: SnapshotFileChange[] }> {
    const then = new Map((before.unreadable ?? []).map(entry => [entry.path, entry.reason]));
    const now = new Map((after.unreadable ?? []).map(entry => [entry.path, entry.reason]));
    const paths = new Set([...then.keys(), ...now.keys()]);
    const changed = [...paths].filter(name => then.get(name) !== now.get(name)).sort();
    const changes: SnapshotFileChange[] = [];
    const inBefore = changed.length ? await inTree(repository, before.tree, changed.filter(name => !name.endsWith('/'))) : new Set<string>();
    for (const name of changed) {
        const absolute = path.join(root, ...name.split('/').filter(part => part !== ''));
        const reasonNow = now.get(name);
        const existsNow = reasonNow !== undefined || !!await fs.promises.lstat(absolute).catch(() => undefined);
        const existedBefore = then.has(name) || inBefore.has(name);
        const kind = !existedBefore ? 'added' : existsNow ? 'modified' : 'deleted';
        const unreadable = reasonNow ?? `it could not be read at the earlier snapshot (${then.get(name)})`;
        changes.push({ path: absolute, relativePath: name, kind, reviewable: false, binary: false, unreadable });
    }
    return { paths, changes };
}

async function inTree(repository: PrivateGitRepository, tree: string, names: string[]): Promise<Set<string>> {
    if (!names.length) {
        return new Set();
    }
    const listed = await repository.git(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--name-only', '--full-tree', tree, '--', ...names]);
    return new Set(listed.toString('utf8').split('\0').filter(name => name !== ''));
}
