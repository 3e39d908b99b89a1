import * as fs from 'fs';
import * as path from 'path';

/** The bytes of the regular files under `dir` (links not followed; a folder that does not exist holds none). */
export async function diskUsage(dir: string): Promise<number> {
    let total = 0;
    const walk = async (current: string): Promise<void> => {
        const entries = await fs.promises.readdir(current, { withFileTypes: true }).catch(() => [] as fs.Dirent[]);
        for (let i = 0; i < entries.length; i += 64) {
            await Promise.all(entries.slice(i, i + 64).map(async entry => {
                const full = path.join(current, entry.name);
                if (entry.isDirectory()) {
                    await walk(full);
                } else if (entry.isFile()) {
                    const size = (await fs.promises.lstat(full).catch(() => undefined))?.size ?? 0;
                    total += size;
                }
            }));
        }
    };
    await walk(dir);
    return total;
}
