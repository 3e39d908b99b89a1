import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ensurePrivateDirectory, writePrivateFileAtomic } from '@theia-cli-companion/safe-files/lib/node';

/**
 * File contents by SHA-256, private to the user (0600 in 0700): the "before" of every file a task
 * may change. Identical contents are stored once, across tasks.
 */
export class BlobStore {
    constructor(readonly dir: string) { }

    static hash(content: Uint8Array): string {
        return crypto.createHash('sha256').update(content).digest('hex');
    }

    async put(content: Uint8Array): Promise<string> {
        const sha = BlobStore.hash(content);
        if (!await this.has(sha)) {
            await ensurePrivateDirectory(this.dir);
            await writePrivateFileAtomic(this.file(sha), content);
        }
        return sha;
    }

    async has(sha: string): Promise<boolean> {
        return fs.promises.access(this.file(sha)).then(() => true, () => false);
    }

    async get(sha: string): Promise<Buffer | undefined> {
        return fs.promises.readFile(this.file(sha)).catch(() => undefined);
    }

    /** Every blob's size in bytes, by id. */
    async sizes(): Promise<Map<string, number>> {
        const names = (await fs.promises.readdir(this.dir).catch(() => [] as string[])).filter(name => /^[0-9a-f]{64}$/.test(name));
        const sizes = new Map<string, number>();
        for (let i = 0; i < names.length; i += 64) {
            await Promise.all(names.slice(i, i + 64).map(async name => {
                const stat = await fs.promises.lstat(path.join(this.dir, name)).catch(() => undefined);
                if (stat?.isFile()) {
                    sizes.set(name, stat.size);
                }
            }));
        }
        return sizes;
    }

    /** Removes every blob not in `keep`; returns how many went. */
    async collectGarbage(keep: ReadonlySet<string>): Promise<number> {
        const names = await fs.promises.readdir(this.dir).catch(() => [] as string[]);
        const unused = names.filter(name => /^[0-9a-f]{64}$/.test(name) && !keep.has(name));
        await Promise.all(unused.map(name => fs.promises.rm(path.join(this.dir, name), { force: true })));
        return unused.length;
    }

    protected file(sha: string): string {
        if (!/^[0-9a-f]{64}$/.test(sha)) {
            throw new Error(`not a blob id: ${sha}`);
        }
        return path.join(this.dir, sha);
    }
}
