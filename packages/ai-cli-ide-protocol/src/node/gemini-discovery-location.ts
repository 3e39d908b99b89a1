import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { privateTmpDirectory, sharedDirectoryIsSafe } from '@theia-cli-companion/safe-files/lib/node';

const PRIVATE_DIRECTORY_MODE = 0o700;

/** Where Gemini CLI's discovery files go, and what the window's terminals need for the CLI to look there. */
export interface GeminiDiscoveryLocation {
    /** `<…>/gemini/ide`. */
    readonly directory: string;
    /** The `TMPDIR` the window's terminals get; only when the files are not in the standard directory. */
    readonly terminalTmpdir?: string;
    /** Which directory and why, for the status view and the diagnostic report. */
    readonly reason: string;
}

/** Per `os.tmpdir()`: once the standard directory was refused, the process keeps to the private one. */
const refused = new Map<string, GeminiDiscoveryLocation>();

/**
 * The standard `<tmpdir>/gemini/ide`, where a Gemini CLI started anywhere on the machine (a terminal
 * of the IDE, an SSH session, `docker exec`) looks, when this user holds that directory chain:
 * `<tmpdir>/gemini` and `<tmpdir>/gemini/ide` created 0700 when absent; existing ones real
 * directories (not links) of this user that nobody else can write to (the VS Code companion leaves
 * them 0755); `<tmpdir>` itself one where nobody else can rename them (sticky, or not writable by
 * others). Then nobody else can put anything beside our files, and the terminals need no `TMPDIR`.
 *
 * Otherwise (another account got to the name first, or it is a link, or open to others) the
 * shared directory is never used: the files go to this user's private tmp directory, which the
 * window's terminals get as `TMPDIR`, and the process keeps to it. Checked again on every call,
 * since `<tmpdir>` cleaners may remove an idle directory and another account take the name after.
 */
export function geminiDiscoveryLocation(): GeminiDiscoveryLocation {
    const base = os.tmpdir();
    const earlier = refused.get(base);
    if (earlier) {
        return earlier;
    }
    const standard = path.join(base, 'gemini', 'ide');
    const refusal = refusalOfStandardDirectory(base);
    if (refusal === undefined) {
        return { directory: standard, reason: 'the standard directory, this user\'s alone: a Gemini CLI started anywhere on this machine (an SSH session, docker exec) finds it' };
    }
    const tmp = privateTmpDirectory();
    const location: GeminiDiscoveryLocation = {
        directory: path.join(tmp, 'gemini', 'ide'),
        terminalTmpdir: tmp,
        reason: `a private directory, given to this window's terminals as TMPDIR, not the standard ${standard}: ${refusal}.`
            + ' A Gemini CLI started outside the IDE\'s terminals (SSH, docker exec) does not find this window'
    };
    refused.set(base, location);
    return location;
}

/** Why the standard chain under `base` is not this user's alone, creating what is missing; undefined when it is. */
function refusalOfStandardDirectory(base: string): string | undefined {
    if (!sharedDirectoryIsSafe(base)) {
        return `${base} lets other accounts rename what is in it (writable by others without the sticky bit, or another account's)`;
    }
    const parent = path.join(base, 'gemini');
    for (const dir of [parent, path.join(parent, 'ide')]) {
        const refusal = refusalOf(dir);
        if (refusal) {
            return refusal;
        }
    }
    return undefined;
}

function refusalOf(dir: string): string | undefined {
    try {
        fs.mkdirSync(dir, { mode: PRIVATE_DIRECTORY_MODE });
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
            return `${dir} cannot be created (${describeError(error)})`;
        }
    }
    let stat: fs.Stats;
    try {
        stat = fs.lstatSync(dir);
    } catch (error) {
        return `${dir} cannot be read (${describeError(error)})`;
    }
    if (stat.isSymbolicLink()) {
        return `${dir} is a symbolic link`;
    }
    if (!stat.isDirectory()) {
        return `${dir} is not a directory`;
    }
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
        return `${dir} belongs to another account (uid ${stat.uid})`;
    }
    if ((stat.mode & 0o022) !== 0) {
        return `${dir} is writable by other accounts (mode ${(stat.mode & 0o7777).toString(8)})`;
    }
    return undefined;
}
