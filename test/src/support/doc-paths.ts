import * as fs from 'fs';
import * as path from 'path';

/** A file name a document gives in code quotes or as a link target, with the line it is on. */
export interface NamedPath {
    readonly document: string;
    readonly line: number;
    readonly name: string;
}

/** Extensions of the files a document can name; anything else in code quotes is a command, a setting or a value. */
const FILE_NAME = /^[\w@.\-/]+\.(ts|tsx|js|mjs|cjs|json|md|sh|yml|yaml|css|png)$/;

/**
 * Files the documents name that are not this repository's: a user's workspace settings, and the files of the
 * ACP Registry's own repository that PROTOCOL.md says it read.
 */
const ELSEWHERE = new Set(['.theia/settings.json', '.vscode/settings.json', 'FORMAT.md', 'agent.schema.json', 'registry.schema.json']);

/** The file names in a Markdown document: `code` spans and link targets that look like a file, not URLs, globs or placeholders. */
export function namedPaths(document: string, text: string): NamedPath[] {
    const found: NamedPath[] = [];
    text.split('\n').forEach((content, index) => {
        const candidates = [
            ...[...content.matchAll(/`([^`\s]+)`/g)].map(match => match[1]),
            ...[...content.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)].map(match => match[1])
        ];
        for (const name of candidates) {
            if (FILE_NAME.test(name) && !/^[a-z]+:/.test(name) && !ELSEWHERE.has(name)) {
                found.push({ document, line: index + 1, name });
            }
        }
    });
    return found;
}

/**
 * Whether a named file exists, read as the documents write them: from the repository's root or the
 * document's folder; from a package's folder or its `src` (`node/x.ts` in a package's section); a
 * compiled `lib/…js` as its `src/…ts`; a bare name anywhere in the tree.
 */
export function pathExists(name: string, documentFolder: string, repository: string, allFiles: readonly string[]): boolean {
    const variants = [name, name.replace(/^lib\//, 'src/').replace(/\.js$/, '.ts')];
    if (!name.includes('/')) {
        return allFiles.some(file => variants.includes(path.basename(file)));
    }
    const bases = [repository, documentFolder, ...packageFolders(repository).flatMap(folder => [folder, path.join(folder, 'src')]), path.join(repository, 'packages')];
    return bases.some(base => variants.some(variant => fs.existsSync(path.join(base, variant))))
        || allFiles.some(file => variants.some(variant => file.endsWith(`/${variant}`)));
}

function packageFolders(repository: string): string[] {
    return fs.readdirSync(path.join(repository, 'packages')).map(name => path.join(repository, 'packages', name));
}

/**
 * Names a document gives in code quotes that read as one of our types, services or functions (CamelCase with an
 * inner capital, optionally `.member`): `DiffReviewManager`, `DiffReviewService.review`. Not settings, commands,
 * environment variables or product names (`OpenCode` and the like go in `elsewhere`).
 */
export function namedTypes(document: string, text: string, elsewhere: ReadonlySet<string>): NamedPath[] {
    const found: NamedPath[] = [];
    text.split('\n').forEach((content, index) => {
        for (const match of content.matchAll(/`([A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)(\.[A-Za-z]\w*)?`/g)) {
            if (!elsewhere.has(match[1])) {
                found.push({ document, line: index + 1, name: match[1] });
            }
        }
    });
    return found;
}

/** The names declared (exported or not) by TypeScript sources: classes, interfaces, types, enums, namespaces, functions, constants. */
export function declaredNames(sources: Iterable<string>): Set<string> {
    const names = new Set<string>();
    for (const source of sources) {
        for (const match of source.matchAll(/\b(?:class|interface|type|enum|namespace|function|const|let)\s+([A-Za-z_$][\w$]*)/g)) {
            names.add(match[1]);
        }
    }
    return names;
}
