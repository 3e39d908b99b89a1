import which = require('which');

/**
 * Where a terminal of this backend would find `command`: the backend's PATH is what its terminals
 * inherit. A command with a path separator is checked as it is.
 */
export async function findExecutable(command: string, pathVariable = process.env.PATH): Promise<string | undefined> {
    if (typeof command !== 'string' || command.trim() === '' || command.length > 4096 || command.includes('\0')) {
        return undefined;
    }
    return (await which(command, { nothrow: true, path: pathVariable })) ?? undefined;
}
