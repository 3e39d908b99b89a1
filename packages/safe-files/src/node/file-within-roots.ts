import * as fs from 'fs';
import * as path from 'path';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';
import { writeFileAtomic } from './private-file';
import { readFileBounded } from './read-file-bounded';
import { checkInsideRoots, describeRefusal } from './workspace-boundary';

/** A write or removal refused because the path does not land inside the roots (or no longer does). */
export class OutsideRootsError extends Error {
    constructor(message: string) {
        super(message);
        this.name = 'OutsideRootsError';
    }
}

/**
 * Writes a file of the user's (an agent's write, a revert) only where it lands inside the (realpath'd)
 * roots, judged immediately before writing, and so that a symbolic link appearing after the check
 * cannot redirect it: the path is resolved first (links followed, dangling ones too), and the write goes
 * to that real place, a temporary file created exclusively in its real folder and renamed over it.
 * Just before the rename the folder must still be itself (no component swapped for a link since) and
 * inside. A link put in the file's own place meanwhile is replaced by the rename, never written
 * through. `mode` applies exactly; without it an existing file keeps its mode and a new one gets
 * 0666 less the umask. Resolves the real path written.
 */
export async function writeFileWithinRoots(file: string, content: string | Uint8Array, roots: readonly string[], mode?: number): Promise<string> {
    const target = await landingWithinRoots(file, roots);
    const folder = path.dirname(target);
    await fs.promises.mkdir(folder, { recursive: true });
    // mkdir follows links in the folder's path too: one swapped in meanwhile shows here, and nothing is written.
    await assertRealFolderWithin(folder, roots, file);
    // Node has no openat/renameat: the temporary file is created by path, so a folder swapped just before
    // lands it outside, where the check before the rename catches it (and removes it by the same path).
    // A folder moved away after it was created keeps the dot-named temporary file.
    const existing = await fs.promises.lstat(target).catch(error => ignoreMissing(error));
    if (existing?.isSymbolicLink()) {
        throw new OutsideRootsError(`${file} became a symbolic link while being written; refused`);
    }
    if (existing && !existing.isFile()) {
        throw new Error(`${file} is not a regular file`);
    }
    await writeFileAtomic(target, content, mode ?? (existing ? existing.mode & 0o7777 : undefined), () => assertRealFolderWithin(folder, roots, file));
    return target;
}

/**
 * Removes a file only if its folder lands inside the roots (a parent swapped for a link to elsewhere
 * is refused). The file itself is unlinked, so a symbolic link in its place is removed, not what it
 * points to. A file that is already gone is fine.
 */
export async function removeFileWithinRoots(file: string, roots: readonly string[]): Promise<void> {
    const folder = await landingWithinRoots(path.dirname(file), roots);
    try {
        await fs.promises.unlink(path.join(folder, path.basename(file)));
    } catch (error) {
        ignoreMissing(error);
    }
}

/**
 * Reads a file of the user's (an agent's read) only where it lands inside the roots, so that a link
 * planted after the check cannot hand it another file: the real path is opened without following a
 * final link, and where the system can say which file was opened (`/proc/self/fd`), that file is
 * checked again after opening (see readFileBounded). Undefined for a file that does not exist; at most
 * `maxBytes` are read. Throws for anything else: an OutsideRootsError for a path outside the roots.
 */
export async function readFileWithinRoots(file: string, roots: readonly string[], maxBytes: number): Promise<Buffer | undefined> {
    const read = await readFileBounded(file, { roots, maxBytes, followLink: true });
    switch (read.kind) {
        case 'absent': return undefined;
        case 'content': return read.content;
        case 'unreadable':
            if (read.cause === 'too-large') {
                throw new Error(`${file} holds more than the ${maxBytes} an agent may read at once`);
            }
            throw read.cause === 'outside' || read.cause === 'link' ? new OutsideRootsError(`${file} ${read.reason}; refused`) : new Error(`${file} ${read.reason}`);
    }
}

/** Where the path lands (see resolveLanding), if inside the roots; the reason otherwise. */
export async function landingWithinRoots(file: string, roots: readonly string[]): Promise<string> {
    const verdict = await checkInsideRoots(file, roots);
    const refusal = describeRefusal(file, verdict, roots);
    if (refusal || !('realPath' in verdict)) {
        throw new OutsideRootsError(`${file} ${refusal}; refused`);
    }
    return verdict.realPath;
}

async function assertRealFolderWithin(folder: string, roots: readonly string[], file: string): Promise<void> {
    const real = await fs.promises.realpath(folder);
    if (real !== folder || !roots.some(root => isPathWithin(real, root, path.sep))) {
        throw new OutsideRootsError(`${file}: its folder ${folder} was replaced (it now leads to ${real}) while being written; refused`);
    }
}

function ignoreMissing(error: unknown): undefined {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return undefined;
    }
    throw error;
}
