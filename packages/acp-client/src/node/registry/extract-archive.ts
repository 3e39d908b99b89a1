import * as fs from 'fs';
import * as path from 'path';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';
import { findExecutable } from '@theia-cli-companion/cli-process/lib/node';
import { ArchiveKind } from './archive-kind';
import { runFile } from './run-file';

export interface ExtractArchiveOptions {
    /** Where the archive came from, for the errors. */
    readonly url: string;
    readonly env: NodeJS.ProcessEnv;
    readonly timeoutMs: number;
    readonly signal?: AbortSignal;
}

const TAR_COMPRESSION: Partial<Record<ArchiveKind, string[]>> = { 'tar.gz': ['-z'], 'tar.bz2': ['-j'], 'tar.xz': ['-J'], 'tar': [] };

/**
 * Unpacks `archive` into the empty folder `into` with the system's own tools (`tar`; `unzip` for zip
 * where there is one, else `tar`, which is bsdtar and reads zip on macOS and Windows), so no archive
 * code of ours parses untrusted bytes. Twice guarded against an archive that writes outside `into`:
 * every entry name is checked before anything is written (no absolute path, no `..`), and afterwards
 * every symbolic link must resolve inside, and only files, folders and links may be there.
 */
export async function extractArchive(archive: string, kind: Exclude<ArchiveKind, 'raw'>, into: string, options: ExtractArchiveOptions): Promise<void> {
    const unzip = kind === 'zip' ? await findExecutable('unzip', options.env.PATH) : undefined;
    const compression = TAR_COMPRESSION[kind] ?? [];
    const run = (command: string, args: string[], what: string) =>
        runFile(command, args, { what, cwd: into, env: options.env, timeoutMs: options.timeoutMs, signal: options.signal });
    const listing = unzip
        ? await run(unzip, ['-Z1', archive], `Listing the zip archive from ${options.url}`)
        : await run('tar', ['-t', ...compression, '-f', archive], `Listing the archive from ${options.url}`);
    const escaping = listing.split(/\r?\n/).filter(name => name !== '' && escapesFolder(name));
    if (escaping.length) {
        const shown = escaping.slice(0, 3).map(name => JSON.stringify(name)).join(', ');
        throw new Error(`Refusing the archive from ${options.url}: ${escaping.length === 1 ? 'an entry points' : 'entries point'} outside the install folder (${shown})`);
    }
    if (unzip) {
        await run(unzip, ['-q', '-o', archive, '-d', into], `Unpacking the zip archive from ${options.url}`);
    } else {
        await run('tar', ['-x', ...compression, '--no-same-owner', '-f', archive, '-C', into], `Unpacking the archive from ${options.url}`);
    }
    const root = await fs.promises.realpath(into);
    await checkUnpacked(root, root, options.url);
}

/** An entry name that is absolute (`/etc/x`, `C:\x`) or climbs (`../x`, `a/../../x`). */
function escapesFolder(name: string): boolean {
    return /^([a-zA-Z]:)?[\\/]/.test(name) || name.split(/[\\/]/).includes('..');
}

async function checkUnpacked(folder: string, root: string, url: string): Promise<void> {
    for (const entry of await fs.promises.readdir(folder, { withFileTypes: true })) {
        const entryPath = path.join(folder, entry.name);
        const shown = path.relative(root, entryPath);
        if (entry.isSymbolicLink()) {
            const target = path.resolve(folder, await fs.promises.readlink(entryPath));
            const resolved = await fs.promises.realpath(entryPath).catch(() => target);
            if (!isPathWithin(target, root, path.sep) || !isPathWithin(resolved, root, path.sep)) {
                throw new Error(`Refusing the archive from ${url}: its link "${shown}" points outside the install folder`);
            }
        } else if (entry.isDirectory()) {
            await checkUnpacked(entryPath, root, url);
        } else if (!entry.isFile()) {
            throw new Error(`Refusing the archive from ${url}: "${shown}" is neither a file, a folder nor a link`);
        }
    }
}
