import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const PRIVATE_DIRECTORY_MODE = 0o700;
const STICKY = 0o1000;

const resolved = new Map<string, string>();

/**
 * This user's private temporary directory: what a window's terminals get as `TMPDIR`, and so where
 * the CLIs that look under `os.tmpdir()` (Gemini CLI's `gemini/ide`, Qwen Code's legacy files) find
 * the discovery files, and nobody else's. The shared `<tmpdir>/gemini` is one directory for every
 * account on the machine: whoever creates it first owns it and can swap what is inside (the CLI
 * follows a planted link to any JSON file the user owns and runs its `stdio.command`), and a
 * private one locks every other account out. So the companion never uses it.
 *
 * `<tmpdir>/theia-cli-companion-<uid>`, 0700, when this user owns it (another account may have
 * planted that predictable name); else a fresh `mkdtemp` beside it; and where the shared directory
 * is writable by others without the sticky bit (so anyone could rename ours), a directory under the
 * user's cache. Resolved once per process and `TMPDIR`.
 */
export function privateTmpDirectory(): string {
    const base = os.tmpdir();
    let dir = resolved.get(base);
    if (!dir) {
        dir = resolvePrivateTmpDirectory(base);
        resolved.set(base, dir);
    }
    return dir;
}

function resolvePrivateTmpDirectory(base: string): string {
    const user = process.getuid?.() ?? os.userInfo().username;
    if (sharedDirectoryIsSafe(base)) {
        const preferred = path.join(base, `theia-cli-companion-${user}`);
        if (makePrivate(preferred)) {
            return preferred;
        }
        return fs.mkdtempSync(`${preferred}-`);
    }
    const cache = process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
    const fallback = path.join(cache, 'theia-cli-companion', 'tmp');
    fs.mkdirSync(fallback, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    if (!makePrivate(fallback)) {
        throw new Error(`Neither ${base} nor ${fallback} can hold a private directory of this user`);
    }
    return fallback;
}

/** Nobody but its owner (this user or root) can rename what is in it: not writable by others, or sticky like /tmp. */
function sharedDirectoryIsSafe(dir: string): boolean {
    try {
        const stat = fs.statSync(dir);
        const uid = process.getuid?.();
        const ownerTrusted = uid === undefined || stat.uid === uid || stat.uid === 0;
        return stat.isDirectory() && ownerTrusted && ((stat.mode & 0o022) === 0 || (stat.mode & STICKY) !== 0);
    } catch {
        return false;
    }
}

/** Creates `dir` 0700 or takes an existing one that is a real directory of this user (tightened to 0700); false otherwise. */
function makePrivate(dir: string): boolean {
    try {
        fs.mkdirSync(dir, { mode: PRIVATE_DIRECTORY_MODE });
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
            return false;
        }
    }
    const stat = fs.lstatSync(dir);
    const uid = process.getuid?.();
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
        return false;
    }
    if ((stat.mode & 0o077) !== 0) {
        fs.chmodSync(dir, PRIVATE_DIRECTORY_MODE);
    }
    return true;
}
