import * as path from 'path';
import { diskUsage } from '@theia-cli-companion/ai-cli-core/lib/node';
import type { StorageUsage } from '@theia-cli-companion/ai-cli-core/lib/common';

const MIB = 1024 * 1024;

/** The space the checkpoint store in `dir` takes, by part; the cap counts the blobs and records, not git's objects. */
export async function checkpointStorageUsage(dir: string, maxStorageMegabytes: number): Promise<StorageUsage> {
    const [blobs, git, records] = await Promise.all(['blobs', 'git', 'chats'].map(part => diskUsage(path.join(dir, part))));
    return {
        id: 'acp-checkpoints', label: 'Chat turn checkpoints', path: dir, bytes: blobs + git + records,
        limit: { bytes: maxStorageMegabytes * MIB, counts: ['blobs', 'records'] },
        parts: [{ name: 'blobs', bytes: blobs }, { name: 'records', bytes: records }, { name: 'git', bytes: git }]
    };
}
