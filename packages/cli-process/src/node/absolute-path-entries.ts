import * as path from 'path';

/**
 * A PATH value with only its absolute entries. `.`, an empty entry or any relative one names a folder
 * relative to wherever a command runs: with a repository as the working directory, its own `git` (or
 * agent) would run. Resolve a program on what this returns, then spawn the absolute path found. An empty
 * result means no folder at all: never hand it on as PATH (`which` and the shell then fall back to a default).
 */
export function absolutePathEntries(pathVariable: string | undefined, delimiter: string = path.delimiter): string {
    return (pathVariable ?? '').split(delimiter).filter(entry => entry !== '' && path.isAbsolute(entry)).join(delimiter);
}
