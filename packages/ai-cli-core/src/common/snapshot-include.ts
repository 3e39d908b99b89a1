import { z } from 'zod';

export const SNAPSHOT_INCLUDE_PREF = 'aiCliCompanion.snapshots.include';

/**
 * Paths that stand for "everything" and for the folders no snapshot should take wholesale: a pattern
 * that matches any of them would put the whole tree, or all of `node_modules` or a `.git`, into every
 * snapshot. The names are made up so that only a pattern that matches any name there matches them.
 */
const EVERYTHING = ['zq9a/zq9b/zq9c.zq9'];
const WHOLESALE_FOLDERS = [
    'node_modules/zq9/index.js', 'node_modules/zq9/package.json', 'node_modules/zq9/zq9.zq9', 'node_modules/@zq9/zq9/index.js', 'node_modules/.bin/zq9',
    'zq9/node_modules/zq9/index.js', '.git/objects/zq/zq9', 'zq9/.git/objects/zq/zq9'
];

/**
 * Why a pattern is wider than a snapshot may take, if it is: it matches every file (`**`, `**\/*`,
 * `*\/**`), or `node_modules` or `.git` wholesale (`node_modules`, `**\/*.js`, `**\/package.json`).
 * A pattern for some files of those folders (`node_modules/some-package/**`) is fine.
 */
export function snapshotIncludeTooWide(glob: string): string | undefined {
    if (EVERYTHING.some(file => gitGlobMatches(glob, file))) {
        return `"${glob}" would record every ignored file (node_modules included) in every snapshot`;
    }
    const folder = WHOLESALE_FOLDERS.find(file => gitGlobMatches(glob, file));
    if (folder) {
        const name = folder.includes('node_modules') ? 'node_modules' : '.git';
        return `"${glob}" would record ${name} wholesale in every snapshot; name the files you need (e.g. ${name === '.git' ? 'none' : 'node_modules/<package>/**'})`;
    }
    return undefined;
}

/**
 * Whether git's `:(glob)` pathspec `glob` selects `file` (a path relative to the folder, `/`-separated),
 * as `git ls-files` decides, or more (never less, so the width check errs on the safe side): a pattern
 * without wildcards names a file or a whole folder; otherwise `*`, `?` and `[…]` stay within one path
 * component, `**` spans any number of them.
 */
export function gitGlobMatches(glob: string, file: string): boolean {
    if (!/[*?[\\]/.test(glob)) {
        const literal = glob.replace(/\/+$/, '');
        return file === literal || file.startsWith(`${literal}/`);
    }
    return new RegExp(`^${gitGlobSource(glob)}$`).test(file);
}

function gitGlobSource(glob: string): string {
    let source = '';
    let i = 0;
    while (i < glob.length) {
        const char = glob[i];
        if (char === '*' && glob[i + 1] === '*' && (i === 0 || glob[i - 1] === '/')) {
            if (i + 2 === glob.length) {
                // `**` at the end (or the whole pattern): everything below.
                source += '.*';
                i += 2;
                continue;
            }
            if (glob[i + 2] === '/') {
                // `**/`: any number of folders, none included.
                source += '(?:.*/)?';
                i += 3;
                continue;
            }
        }
        if (char === '*') {
            // A `**` elsewhere (`generated**`) is read as spanning folders: git's walk takes a whole folder for some.
            source += glob[i + 1] === '*' ? '.*' : '[^/]*';
            while (glob[i] === '*') {
                i++;
            }
            continue;
        }
        if (char === '?') {
            source += '[^/]';
        } else if (char === '\\' && i + 1 < glob.length) {
            i++;
            source += escapeRegExp(glob[i]);
        } else if (char === '[') {
            const end = glob.indexOf(']', i + 2);
            if (end < 0) {
                source += '\\[';
            } else {
                const body = glob.slice(i + 1, end);
                const negated = body.startsWith('!') || body.startsWith('^');
                const members = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, match => `\\${match}`);
                source += negated ? `[^/${members}]` : `(?!/)[${members}]`;
                i = end;
            }
        } else {
            source += escapeRegExp(char);
        }
        i++;
    }
    return source;
}

function escapeRegExp(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\/-]/g, match => `\\${match}`);
}

/** One pattern of `aiCliCompanion.snapshots.include`. */
export const SnapshotIncludePatternSchema = z.string().min(1).max(500)
    .refine(glob => !glob.includes('\0') && !glob.startsWith('/') && !glob.startsWith(':'), 'a pattern must be relative to the folder, with no pathspec magic')
    .refine(glob => !glob.split('/').includes('..'), 'a pattern must not leave the folder')
    .superRefine((glob, context) => {
        const tooWide = snapshotIncludeTooWide(glob);
        if (tooWide) {
            context.addIssue({ code: z.ZodIssueCode.custom, message: tooWide });
        }
    });

/**
 * Globs (relative to a workspace folder, git's `:(glob)` syntax) of ignored files that snapshots record
 * anyway. Checked wherever they cross into the backend: no pathspec magic, nothing outside the folder,
 * nothing wider than a snapshot may take (every file, node_modules or .git wholesale).
 */
export const SnapshotIncludeSchema = z.array(SnapshotIncludePatternSchema).max(100);
