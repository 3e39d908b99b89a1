import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { sharedDirectoryIsSafe } from './shared-directory-is-safe';

const PRIVATE_DIRECTORY_MODE = 0o700;

const resolved = new Map<string, string>();

/**
 * This user's private temporary directory: where Gemini CLI's discovery files go when the shared
 * `<tmpdir>/gemini` cannot be used (another account holds it, or it is a link or open to others: see
 * ai-cli-ide-protocol's geminiDiscoveryLocation), handed to the window's terminals as `TMPDIR` then, so the CLIs that look
 * under `os.tmpdir()` (Gemini CLI's `gemini/ide`, Qwen Code's legacy files) find ours and nobody else's.
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
