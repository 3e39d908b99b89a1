/**
 * Joins workspace roots into the single `workspacePath` string the CLIs split on the platform's
 * path delimiter. An empty segment would make the Gemini CLI accept every cwd, so empty, relative
 * and delimiter-containing roots are refused instead of being joined.
 * An empty list gives '' which both CLIs read as "no folder open".
 */
export function joinWorkspacePaths(roots: readonly string[], delimiter: string): string {
    const unique: string[] = [];
    for (const root of roots) {
        if (!root || !isAbsolutePath(root)) {
            throw new Error(`Workspace root must be an absolute path, got ${JSON.stringify(root)}`);
        }
        if (root.includes(delimiter)) {
            throw new Error(`Workspace root ${JSON.stringify(root)} contains the path delimiter ${JSON.stringify(delimiter)} and cannot be advertised`);
        }
        if (!unique.includes(root)) {
            unique.push(root);
        }
    }
    return unique.join(delimiter);
}

function isAbsolutePath(p: string): boolean {
    return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}
