import * as path from 'path';
import { absolutePathEntries } from './absolute-path-entries';
import { findExecutable } from './find-executable';

/**
 * The absolute path of the program `command` names, to be spawned instead of the name. A bare name is
 * looked up on the absolute entries of `pathVariable` only (see {@link absolutePathEntries}): with `.`
 * or an empty entry in PATH and a repository as the working folder, the repository's own `gemini`
 * would run. An absolute path is checked as it is; a relative one with a separator (`bin/agent`) is
 * refused, as it would name a file of whatever folder the program runs in. Undefined when not found.
 */
export async function findAbsoluteExecutable(command: string, pathVariable: string | undefined = process.env.PATH): Promise<string | undefined> {
    if (typeof command !== 'string' || (!path.isAbsolute(command) && /[\\/]/.test(command))) {
        return undefined;
    }
    const entries = path.isAbsolute(command) ? pathVariable : absolutePathEntries(pathVariable);
    if (!entries && !path.isAbsolute(command)) {
        // Nothing absolute left: no folder to look in (`which` given an empty PATH would look in the current one).
        return undefined;
    }
    const found = await findExecutable(command, entries);
    return found !== undefined && path.isAbsolute(found) ? found : undefined;
}
