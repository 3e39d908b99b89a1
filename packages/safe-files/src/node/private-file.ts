import * as fs from 'fs';
import * as path from 'path';
import { randomBytes } from 'crypto';

const PRIVATE_DIRECTORY_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes sure `dir` exists as a real directory owned by this user with no access for anyone else.
 * Directories it creates are 0700 from the start; an existing one of ours is tightened; one owned by
 * another user (a shared /tmp planted by someone else) is refused, since its owner could swap files.
 */
export async function ensurePrivateDirectory(dir: string): Promise<void> {
    await fs.promises.mkdir(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE }).catch(error => {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
            throw error;
        }
        // Something that is not a directory holds the name: said below, in words.
    });
    const stat = await fs.promises.lstat(dir);
    if (!stat.isDirectory()) {
        throw new Error(`${dir} is not a directory (a symbolic link or file is in the way)`);
    }
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
        throw new Error(`${dir} belongs to uid ${stat.uid}, not to this user (uid ${uid}); refusing to write a secret there`);
    }
    if ((stat.mode & 0o077) !== 0) {
        await fs.promises.chmod(dir, PRIVATE_DIRECTORY_MODE);
    }
}

/** Temp files start with a dot and end in `.tmp`, so no CLI's discovery pattern ever matches one. */
export function temporaryNameFor(file: string): string {
    return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}
const TEMPORARY_NAME = /^\..+\.(\d+)-[0-9a-f]{12}\.tmp$/;

/** The PID that wrote a temporary file of {@link writePrivateFileAtomic}, if `name` is one. */
export function temporaryFileWriterPid(name: string): number | undefined {
    const match = TEMPORARY_NAME.exec(name);
    return match ? Number(match[1]) : undefined;
}

export interface AtomicWriteOptions {
    /**
     * Whether the content is on disk before the rename (fsync; the default). A file rewritten before each use
     * may skip it: readers still see the old file or the new one whole, and after a crash it is written again.
     */
    durable?: boolean;
}

/**
 * Writes `content` so that readers see either the old file or the complete new one, never a partial
 * one, and the file is 0600 from its first byte: an exclusive create with mode 0600, fsync, rename.
 */
export function writePrivateFileAtomic(file: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
    return writeFileAtomic(file, content, PRIVATE_FILE_MODE, undefined, options);
}

/**
 * The same for any file (a user's, put back as it was): a temporary file beside it created
 * exclusively with `mode` (applied exactly, whatever the umask; without one, 0666 less the umask),
 * fsync, rename. `beforeRename` may refuse at the last moment (it throws; the temporary file goes).
 */
export async function writeFileAtomic(
    file: string, content: string | Uint8Array, mode: number | undefined, beforeRename?: () => Promise<void>, options: AtomicWriteOptions = {}
): Promise<void> {
    const temporary = temporaryNameFor(file);
    // O_EXCL also refuses a symbolic link planted under the temporary name: nothing is written through one.
    const handle = await fs.promises.open(temporary, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, mode ?? 0o666);
    try {
        try {
            if (mode !== undefined) {
                await handle.chmod(mode);
            }
            await handle.writeFile(content);
            if (options.durable !== false) {
                await handle.sync();
            }
        } finally {
            await handle.close();
        }
        await beforeRename?.();
        await fs.promises.rename(temporary, file);
    } catch (error) {
        await fs.promises.rm(temporary, { force: true });
        throw error;
    }
}

/** Synchronous removal for process-exit paths, where no promise would ever settle. */
export function removeFileSync(file: string): boolean {
    try {
        fs.unlinkSync(file);
        return true;
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            return false;
        }
        throw error;
    }
}
