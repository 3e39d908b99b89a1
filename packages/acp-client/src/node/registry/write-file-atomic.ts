import { randomBytes } from 'crypto';
import * as fs from 'fs';

/**
 * Writes `file` so that a reader sees the old content or the new, never a part: a temporary file
 * beside it, created with `mode` from the start (never readable by others, not even briefly), synced,
 * then renamed over the target. The temporary file is removed when anything fails.
 */
export async function writeFileAtomic(file: string, content: string, mode = 0o600): Promise<void> {
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
        const handle = await fs.promises.open(temporary, 'wx', mode);
        try {
            await handle.writeFile(content, 'utf8');
            await handle.sync();
        } finally {
            await handle.close();
        }
        await fs.promises.rename(temporary, file);
    } catch (error) {
        await fs.promises.rm(temporary, { force: true });
        throw error;
    }
}
