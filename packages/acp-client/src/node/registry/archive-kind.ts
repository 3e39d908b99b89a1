/** How a downloaded file is unpacked, by the name it has at the end of its URL. */
export type ArchiveKind = 'tar.gz' | 'tar.bz2' | 'tar.xz' | 'tar' | 'zip' | 'raw';

const SUFFIXES: [string, ArchiveKind][] = [
    ['.tar.gz', 'tar.gz'], ['.tgz', 'tar.gz'], ['.tar.bz2', 'tar.bz2'], ['.tbz2', 'tar.bz2'], ['.tbz', 'tar.bz2'],
    ['.tar.xz', 'tar.xz'], ['.txz', 'tar.xz'], ['.tar', 'tar'], ['.zip', 'zip']
];

/**
 * The registry serves `.tar.gz`, `.tar.bz2` (goose) and `.zip` archives, and sometimes the executable
 * itself (docker's cagent: `…/cagent-linux-amd64`): anything without an archive suffix is `raw`,
 * which is what the registry's own verifier does (`verify_agents.py`, `extract_archive`).
 */
export function archiveKindOf(url: string): ArchiveKind {
    let name: string;
    try {
        name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '').toLowerCase();
    } catch {
        name = url.toLowerCase();
    }
    return SUFFIXES.find(([suffix]) => name.endsWith(suffix))?.[1] ?? 'raw';
}
