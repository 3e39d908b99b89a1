import * as fs from 'fs';
import * as path from 'path';
import { ensurePrivateDirectory, writePrivateFileAtomic } from '@theia-cli-companion/safe-files/lib/node';
import { absolutePathEntries, findAbsoluteExecutable, SpawnHelper } from '@theia-cli-companion/cli-process/lib/node';

/** A git command of ours failed: what it was and what git said. */
export class GitCommandError extends Error {
    constructor(readonly args: readonly string[], readonly code: number | null, readonly stderr: string) {
        super(`git ${args.join(' ')} failed (${code === null ? 'killed' : `exit ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' / ') || 'no message'}`);
    }
}

/**
 * Attributes applied before any the work tree declares (`info/attributes` outranks every `.gitattributes`):
 * content is stored byte for byte, whatever a cloned repository asks for (no end-of-line conversion, no
 * filter, no ident expansion, no re-encoding).
 */
const BYTE_EXACT_ATTRIBUTES = '* -text -filter -ident -working-tree-encoding\n';

/**
 * Our whole configuration. Nothing is read from the system, the user's global files or the work tree's
 * repository, so a cloned repository cannot choose a hook, filter, fsmonitor or pager for us to run.
 */
const CONFIG = [
    '[core]',
    '\trepositoryformatversion = 0',
    // Whatever the umask: files 0600, folders 0700 (the snapshots hold the user\'s .env files too).
    '\tsharedRepository = 0600',
    '\tbare = false',
    '\tfilemode = true',
    '\tsymlinks = true',
    '\tautocrlf = false',
    '\tsafecrlf = false',
    '\tfsmonitor = false',
    '\tuntrackedCache = false',
    '\thooksPath = /dev/null',
    '[gc]',
    '\tauto = 0',
    '[index]',
    '\tthreads = true',
    ''
].join('\n');

/** Our only branch, never committed to: snapshots are trees. */
const HEAD = 'ref: refs/heads/main\n';

/**
 * A git directory private to us (0700, under the IDE's config directory) whose work tree is a user's
 * folder: git's index gives us what changed since the last snapshot at the cost of `git status`. Every
 * command runs with our configuration only, on our index and object store; the folder's own repository
 * is never written to (its objects may be read, as an alternate, so committed content is not copied).
 */
export class PrivateGitRepository {

    constructor(readonly gitDir: string, readonly workTree: string) { }

    /** Whether a `git` executable is on the PATH of this process (asked once per PATH value). */
    static async available(): Promise<boolean> {
        const executable = await PrivateGitRepository.executable();
        if (!executable) {
            return false;
        }
        let known = availability.get(executable);
        if (!known) {
            known = run(executable, ['--version'], { env: { PATH: absolutePathEntries(process.env.PATH) } }).then(() => true, () => false);
            availability.set(executable, known);
        }
        return known;
    }

    /**
     * `git` as an absolute path, found once per PATH value on its absolute entries only: git runs with the
     * user's folder as working directory, where `.` or an empty entry of PATH would find the repository's own `git`.
     */
    static executable(pathVariable = process.env.PATH): Promise<string | undefined> {
        const key = pathVariable ?? '';
        let found = executables.get(key);
        if (!found) {
            found = findAbsoluteExecutable('git', key);
            executables.set(key, found);
        }
        return found;
    }

    get indexFile(): string {
        return path.join(this.gitDir, 'index');
    }

    /**
     * Creates the directory on first use, laid out as gitrepository-layout(5) says (no templates, so no sample
     * hooks; without a `git init` process); writes our config and attributes when this process has not yet.
     */
    async prepare(alternateObjects: string | undefined, excludes: readonly string[]): Promise<void> {
        const settings = JSON.stringify([alternateObjects, excludes]);
        const head = path.join(this.gitDir, 'HEAD');
        if (prepared.get(this.gitDir) === settings && fs.existsSync(head)) {
            return;
        }
        prepared.delete(this.gitDir);
        await ensurePrivateDirectory(this.gitDir);
        const initialized = await fs.promises.readFile(head, 'latin1').then(text => text === HEAD, () => false);
        if (!initialized) {
            // Inside our own 0700 directory, which nobody else can write to. Only what git needs: refs and objects
            // make it a repository, `info` and `objects/info` hold our files; git creates the rest when it needs it.
            const mkdir = (dir: string) => fs.promises.mkdir(path.join(this.gitDir, dir), { recursive: true, mode: 0o700 });
            await Promise.all([mkdir('info'), mkdir('refs'), mkdir('objects/info')]);
        }
        // Each rewritten before this process's first git command, so a crash that loses one loses nothing: not synced.
        const rewritten = { durable: false };
        const alternates = path.join(this.gitDir, 'objects', 'info', 'alternates');
        await Promise.all([
            writePrivateFileAtomic(path.join(this.gitDir, 'config'), CONFIG, rewritten),
            writePrivateFileAtomic(path.join(this.gitDir, 'info', 'attributes'), BYTE_EXACT_ATTRIBUTES, rewritten),
            writePrivateFileAtomic(path.join(this.gitDir, 'info', 'exclude'), excludes.map(pattern => `${pattern}\n`).join(''), rewritten),
            alternateObjects ? writePrivateFileAtomic(alternates, `${alternateObjects}\n`, rewritten) : fs.promises.rm(alternates, { force: true })
        ]);
        if (!initialized) {
            // Last: git takes the directory for a repository once HEAD is there (an empty one, left by a crash, is rewritten).
            await writePrivateFileAtomic(head, HEAD, rewritten);
        }
        prepared.set(this.gitDir, settings);
    }

    /** Runs git on our directory and the work tree; resolves with its standard output. */
    async git(args: readonly string[], input?: string | Buffer): Promise<Buffer> {
        const executable = await PrivateGitRepository.executable();
        if (!executable) {
            throw new Error('git is not installed: no git on the absolute entries of PATH');
        }
        return run(executable, args, { env: this.env(), cwd: this.workTree, input });
    }

    /**
     * The contents of `ids` (blob ids), streamed one at a time to `each`, in order, through one `git cat-file --batch`.
     * Blobs larger than `maxBytes` are reported with their size and no content.
     */
    async readBlobs(ids: readonly string[], maxBytes: number, each: (id: string, content: Buffer | undefined, size: number) => Promise<void>): Promise<void> {
        if (!ids.length) {
            return;
        }
        const sizes = (await this.git(['cat-file', '--batch-check=%(objectname) %(objectsize)'], ids.join('\n') + '\n')).toString('latin1').split('\n');
        const small = ids.filter((_, index) => Number(sizes[index]?.split(' ')[1]) <= maxBytes);
        const contents = small.length ? splitBatch(await this.git(['cat-file', '--batch'], small.join('\n') + '\n')) : new Map<string, Buffer>();
        for (const [index, id] of ids.entries()) {
            const size = Number(sizes[index]?.split(' ')[1]);
            if (!Number.isFinite(size)) {
                throw new Error(`git has no blob ${id}`);
            }
            await each(id, contents.get(id), size);
        }
    }

    protected env(): NodeJS.ProcessEnv {
        return {
            PATH: absolutePathEntries(process.env.PATH),
            LC_ALL: 'C',
            HOME: this.gitDir,
            XDG_CONFIG_HOME: this.gitDir,
            GIT_DIR: this.gitDir,
            GIT_WORK_TREE: this.workTree,
            GIT_CONFIG_NOSYSTEM: '1',
            GIT_CONFIG_GLOBAL: '/dev/null',
            GIT_TERMINAL_PROMPT: '0',
            GIT_AUTHOR_NAME: 'Theia CLI Companion', GIT_AUTHOR_EMAIL: 'snapshots@localhost',
            GIT_COMMITTER_NAME: 'Theia CLI Companion', GIT_COMMITTER_EMAIL: 'snapshots@localhost'
        };
    }
}

/** Whether each git executable runs, and where git is on each PATH value seen. */
const availability = new Map<string, Promise<boolean>>();
const executables = new Map<string, Promise<string | undefined>>();
/** The settings each directory was last prepared with by this process: unchanged, nothing is rewritten. */
const prepared = new Map<string, string>();

/** `git cat-file --batch` output: `<id> blob <size>\n<content>\n` per object. */
function splitBatch(output: Buffer): Map<string, Buffer> {
    const contents = new Map<string, Buffer>();
    let offset = 0;
    while (offset < output.length) {
        const headerEnd = output.indexOf(10, offset);
        const [id, type, size] = output.subarray(offset, headerEnd).toString('latin1').split(' ');
        if (type !== 'blob' || headerEnd < 0) {
            throw new Error(`unexpected git cat-file output: ${output.subarray(offset, Math.min(offset + 80, output.length)).toString('latin1')}`);
        }
        const start = headerEnd + 1;
        contents.set(id, output.subarray(start, start + Number(size)));
        offset = start + Number(size) + 1;
    }
    return contents;
}

/** Git runs from the spawn helper: a fork of a large backend per git command would cost more than many of the commands. */
const spawnHelper = new SpawnHelper();

async function run(command: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string | Buffer }): Promise<Buffer> {
    const result = await spawnHelper.run({ command, args, env: options.env, cwd: options.cwd, input: options.input });
    if (result.code !== 0) {
        throw new GitCommandError(args, result.code, result.stderr.toString());
    }
    return result.stdout;
}
