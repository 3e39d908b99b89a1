import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { indexHasSkipBits } from './index-skip-bits';

describe('indexHasSkipBits: the skip bits of a git index, read without git', function (): void {
    this.timeout(30000);
    let root: string;

    const git = (folder: string, ...args: string[]) => execFileSync('git', args, {
        cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }
    }).toString();
    const index = (folder: string) => fs.readFileSync(path.join(folder, '.git', 'index'));
    /** What git itself says: `ls-files -v` tags assume-unchanged entries lowercase and skip-worktree ones `S`. */
    const gitSays = (folder: string) => git(folder, 'ls-files', '-v', '-z').split('\0').some(entry => /^([a-z]|S) /.test(entry));

    function repository(name: string, files: readonly string[], ...initArgs: string[]): string {
        const folder = path.join(root, name);
        fs.mkdirSync(folder);
        git(folder, 'init', '-q', ...initArgs);
        for (const file of files) {
            fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
            fs.writeFileSync(path.join(folder, file), `${file}\n`);
        }
        git(folder, 'add', '-A');
        const blob = git(folder, 'hash-object', '-w', 'a.txt').trim();
        git(folder, 'update-index', '--add', '--cacheinfo', `100644,${blob},${longName}`);
        return folder;
    }

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'index-skip-bits-')));
    });

    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const files = ['a.txt', 'b/c.txt', 'b/d/e.txt', 'b/d/e2.txt', 'z.md'];
    /** Longer than the 12 bits of an entry's name length (and than a path may be here): put in the index only. */
    const longName = `${'long-name/'.repeat(500)}deep.txt`;

    for (const version of ['2', '3', '4']) {
        it(`agrees with git on index version ${version}: none, assume-unchanged, skip-worktree, both, cleared again`, () => {
            const folder = repository(`v${version}`, files);
            git(folder, 'update-index', '--index-version', version);
            const steps: Array<[string[], boolean]> = [
                [[], false],
                [['--assume-unchanged', 'b/d/e.txt'], true],
                [['--no-assume-unchanged', 'b/d/e.txt'], false],
                [['--skip-worktree', longName], true],
                [['--assume-unchanged', 'a.txt'], true],
                [['--no-skip-worktree', longName], true],
                [['--no-assume-unchanged', 'a.txt'], false]
            ];
            for (const [args, expected] of steps) {
                if (args.length) {
                    git(folder, 'update-index', ...args);
                }
                expect(gitSays(folder), `git, after ${args.join(' ') || 'add'}`).to.equal(expected);
                expect(indexHasSkipBits(index(folder)), `ours, after ${args.join(' ') || 'add'} (version ${version})`).to.equal(expected);
            }
        });
    }

    it('reads an index of SHA-256 object names, and one with the cache-tree and untracked-cache extensions', () => {
        const sha256 = repository('sha256', files, '--object-format=sha256');
        expect(indexHasSkipBits(index(sha256))).to.equal(false);
        git(sha256, 'update-index', '--skip-worktree', 'z.md');
        expect(indexHasSkipBits(index(sha256))).to.equal(true);

        const extended = repository('extended', files);
        git(extended, 'write-tree');
        git(extended, '-c', 'core.untrackedCache=true', 'update-index', '--untracked-cache');
        git(extended, '-c', 'core.untrackedCache=true', 'status', '--porcelain');
        expect(index(extended).includes(Buffer.from('UNTR'))).to.equal(true);
        expect(indexHasSkipBits(index(extended))).to.equal(false);
    });

    it('cannot tell (git is asked) for anything else: truncated, padded, another signature, an unknown version, entries miscounted', () => {
        const folder = repository('broken', files);
        const good = index(folder);
        const withCount = (count: number) => {
            const copy = Buffer.from(good);
            copy.writeUInt32BE(count, 8);
            return copy;
        };
        const withVersion = Buffer.from(good);
        withVersion.writeUInt32BE(5, 4);
        const broken = {
            truncated: good.subarray(0, good.length - 7),
            padded: Buffer.concat([good, Buffer.alloc(3)]),
            signature: Buffer.concat([Buffer.from('DIRX'), good.subarray(4)]),
            version: withVersion,
            'one entry more': withCount(files.length + 2),
            empty: Buffer.alloc(0)
        };
        for (const [name, bytes] of Object.entries(broken)) {
            expect(indexHasSkipBits(bytes), name).to.equal(undefined);
        }
        expect(indexHasSkipBits(good)).to.equal(false);
    });
});
