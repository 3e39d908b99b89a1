import * as fs from 'fs';
import * as path from 'path';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';

/**
 * Where a path really points, following symlinks as far as the path exists: a file that does not
 * exist yet (a CLI's new file) resolves through its nearest existing parent, so a symlinked folder
 * cannot smuggle a write outside the workspace.
 */
export async function realpathOfNearestExisting(filePath: string): Promise<string> {
    let current = filePath;
    const rest: string[] = [];
    for (;;) {
        try {
            return path.join(await fs.promises.realpath(current), ...rest.reverse());
        } catch {
            const parent = path.dirname(current);
            if (parent === current) {
                return filePath;
            }
            rest.push(path.basename(current));
            current = parent;
        }
    }
}

/** Whether an absolute path lies inside one of the (realpath'd) roots, symlinks resolved. */
export async function isInsideRoots(filePath: string, roots: readonly string[]): Promise<boolean> {
    if (!path.isAbsolute(filePath)) {
        return false;
    }
    const real = await realpathOfNearestExisting(path.normalize(filePath));
    return roots.some(root => isPathWithin(real, root, path.sep));
}
