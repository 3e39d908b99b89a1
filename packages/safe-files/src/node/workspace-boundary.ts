import * as fs from 'fs';
import * as path from 'path';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';

/** How many symbolic links one path may go through, as Linux allows (MAXSYMLINKS) before ELOOP. */
export const MAX_SYMBOLIC_LINKS = 40;

/**
 * A path whose landing place cannot be told (a folder that may not be read, a file used as a folder,
 * a loop of links): such a path is refused, never guessed at.
 */
export class UnresolvablePathError extends Error {
    constructor(readonly filePath: string, readonly code: string, reason: string) {
        super(`Cannot tell where ${filePath} leads: ${reason}`);
        this.name = 'UnresolvablePathError';
    }
}

/**
 * Where an absolute path really lands, as the OS resolves it when a file is opened or created there:
 * every symbolic link on the way is followed, a dangling one too (by its text, relative to its folder,
 * so that `ws/notes.md -> ../../.ssh/authorized_keys` lands in `.ssh` whether that file exists or not).
 * Only a missing component ("does not exist yet": a CLI's new file) ends the walk; nothing below it
 * exists, so the rest lands as written. Anything else that stops the walk throws an
 * {@link UnresolvablePathError}.
 */
export async function resolveLanding(filePath: string): Promise<string> {
    if (!path.isAbsolute(filePath)) {
        throw new UnresolvablePathError(filePath, 'EINVAL', 'the path is not absolute');
    }
    let resolved = path.parse(filePath).root;
    const pending = componentsOf(filePath);
    let links = 0;
    while (pending.length) {
        const name = pending.shift()!;
        if (name === '..') {
            // `resolved` has no links left in it, so its parent is the real one.
            resolved = path.dirname(resolved);
            continue;
        }
        const candidate = path.join(resolved, name);
        let stat: fs.Stats;
        try {
            stat = await fs.promises.lstat(candidate);
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
                return path.join(candidate, ...pending);
            }
            throw unresolvable(filePath, candidate, error);
        }
        if (stat.isSymbolicLink()) {
            if (++links > MAX_SYMBOLIC_LINKS) {
                throw new UnresolvablePathError(filePath, 'ELOOP', `more than ${MAX_SYMBOLIC_LINKS} symbolic links on the way (a loop?)`);
            }
            const target = await fs.promises.readlink(candidate).catch(error => { throw unresolvable(filePath, candidate, error); });
            pending.unshift(...componentsOf(target));
            if (path.isAbsolute(target)) {
                resolved = path.parse(target).root;
            }
            continue;
        }
        if (pending.length && !stat.isDirectory()) {
            throw new UnresolvablePathError(filePath, 'ENOTDIR', `${candidate} is not a folder`);
        }
        resolved = candidate;
    }
    return resolved;
}

/** Where a path lands, and whether that is inside the roots; or why that cannot be told. */
export type BoundaryVerdict =
    | { readonly inside: boolean; readonly realPath: string }
    | { readonly inside: false; readonly problem: string };

/**
 * Judges an absolute path against (realpath'd) roots by where it really lands, see {@link resolveLanding}.
 * A path with `..` is judged as the OS resolves it (`link/..` is the parent of the link's target) and
 * as written with the `..` taken away (what a caller that normalises it opens): both must be inside.
 */
export async function checkInsideRoots(filePath: string, roots: readonly string[]): Promise<BoundaryVerdict> {
    if (!path.isAbsolute(filePath)) {
        return { inside: false, problem: `the path must be absolute, got ${JSON.stringify(filePath)}` };
    }
    const inside = (candidate: string) => roots.some(root => isPathWithin(candidate, root, path.sep));
    try {
        const realPath = await resolveLanding(filePath);
        const normalised = path.normalize(filePath);
        const asNormalised = normalised === filePath ? realPath : await resolveLanding(normalised);
        return { inside: inside(realPath) && inside(asNormalised), realPath: inside(realPath) && !inside(asNormalised) ? asNormalised : realPath };
    } catch (error) {
        return { inside: false, problem: error instanceof Error ? error.message : String(error) };
    }
}

/** Whether an absolute path lands inside one of the (realpath'd) roots; a path that cannot be resolved does not. */
export async function isInsideRoots(filePath: string, roots: readonly string[]): Promise<boolean> {
    return (await checkInsideRoots(filePath, roots)).inside;
}

/**
 * Why a path may not be used, to follow "<filePath> ": undefined when it lands inside the roots. Says
 * where a symbolic link leads, so the user sees why a path inside the folder is refused.
 */
export function describeRefusal(filePath: string, verdict: BoundaryVerdict, roots: readonly string[]): string | undefined {
    if (verdict.inside) {
        return undefined;
    }
    if ('problem' in verdict) {
        return `cannot be checked against the workspace folders (${verdict.problem})`;
    }
    const where = verdict.realPath !== path.normalize(filePath) ? ` (it leads to ${verdict.realPath})` : '';
    return `is outside the workspace folders (${roots.join(', ') || 'none'})${where}`;
}

function componentsOf(filePath: string): string[] {
    return filePath.split(path.sep).filter(part => part !== '' && part !== '.');
}

function unresolvable(filePath: string, component: string, error: unknown): UnresolvablePathError {
    const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    const reasons: Record<string, string> = {
        EACCES: `${component} may not be read (permission denied)`,
        EPERM: `${component} may not be read (operation not permitted)`,
        ENOTDIR: `a component of ${component} is not a folder`,
        ELOOP: `too many symbolic links at ${component}`,
        ENAMETOOLONG: `${component} is too long a name`
    };
    return new UnresolvablePathError(filePath, code, Object.hasOwn(reasons, code) ? reasons[code] : `${component}: ${(error as Error).message}`);
}
