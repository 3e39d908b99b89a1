import * as fs from 'fs';
import * as path from 'path';
import { checkInsideRoots, describeRefusal } from '@theia-cli-companion/safe-files/lib/node';

const BINARY_SNIFF_BYTES = 8000;

/**
 * Refuses a file whose change cannot be reviewed safely (a relative path, outside the roots or
 * leading there, a directory, a pipe, a binary file); resolves whether the file exists.
 */
export async function checkReviewTarget(filePath: string, roots: readonly string[]): Promise<boolean> {
    if (!path.isAbsolute(filePath)) {
        throw new Error(`filePath must be absolute, got ${JSON.stringify(filePath)}`);
    }
    if (!roots.length) {
        throw new Error(`This window has no workspace folder open; refusing to show a change to ${filePath}`);
    }
    // Judged by where the path lands, dangling links followed: accepting a "new file" must not write outside.
    const refusal = describeRefusal(filePath, await checkInsideRoots(filePath, roots), roots);
    if (refusal) {
        throw new Error(`${filePath} ${refusal}; refusing to show a change to it`);
    }
    let stat: fs.Stats;
    try {
        stat = await fs.promises.stat(filePath);
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            return false;
        }
        throw error;
    }
    if (stat.isDirectory()) {
        throw new Error(`${filePath} is a directory, not a file`);
    }
    if (!stat.isFile()) {
        throw new Error(`${filePath} is not a regular file`);
    }
    if (await looksBinary(filePath)) {
        throw new Error(`${filePath} is a binary file; its changes cannot be reviewed as text`);
    }
    return true;
}

async function looksBinary(filePath: string): Promise<boolean> {
    // Checked as a regular file just before, but it may have become a named pipe since: opening one must not wait for a writer.
    const handle = await fs.promises.open(filePath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
        if (!(await handle.stat()).isFile()) {
            throw new Error(`${filePath} is not a regular file`);
        }
        const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
        return buffer.subarray(0, bytesRead).includes(0);
    } finally {
        await handle.close();
    }
}
