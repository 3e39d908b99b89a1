import * as fs from 'fs';

const STICKY = 0o1000;

/**
 * Whether nobody but its owner (this user or root) can rename what is in `dir`: not writable by
 * others, or sticky like /tmp. A directory of this user's inside it then stays where it is.
 */
export function sharedDirectoryIsSafe(dir: string): boolean {
    try {
        const stat = fs.statSync(dir);
        const uid = process.getuid?.();
        const ownerTrusted = uid === undefined || stat.uid === uid || stat.uid === 0;
        return stat.isDirectory() && ownerTrusted && ((stat.mode & 0o022) === 0 || (stat.mode & STICKY) !== 0);
    } catch {
        return false;
    }
}
