import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { BlobStore, WorkspaceSnapshotter } from '@theia-cli-companion/ai-cli-core/lib/node';
import { REPO_ROOT } from '../hosts/theia-backend';
import { Figure, now, round, summarize } from './stats';

export interface SnapshotBenchOptions {
    readonly quick: boolean;
    /** A scratch folder, removed with the sandbox. */
    readonly scratch: string;
}

/** The real project committed into a temporary repository: a large published package. */
const REAL_PROJECT = '@google/gemini-cli-core';
const GOAL = 2;

const gitEnv = (home: string) => ({
    PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@localhost', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@localhost'
});

function timed(work: () => void): number {
    const start = process.hrtime.bigint();
    work();
    return Number(process.hrtime.bigint() - start) / 1e6;
}

async function timedAsync(work: () => Promise<unknown>): Promise<number> {
    const start = process.hrtime.bigint();
    await work();
    return Number(process.hrtime.bigint() - start) / 1e6;
}

/** `count` small source files in folders of a hundred, as a monorepo has them. */
function generateTree(folder: string, count: number): void {
    for (let i = 0; i < count; i++) {
        const dir = path.join(folder, `pkg-${Math.floor(i / 10000)}`, `src-${Math.floor(i / 100) % 100}`);
        if (i % 100 === 0) {
            fs.mkdirSync(dir, { recursive: true });
        }
        fs.writeFileSync(path.join(dir, `file-${i}.ts`), `export const value${i} = ${i};\n// ${'x'.repeat(i % 200)}\n`);
    }
    fs.writeFileSync(path.join(folder, '.gitignore'), 'node_modules/\ndist/\n');
}

function commitAll(folder: string, home: string): void {
    const env = gitEnv(home);
    execFileSync('git', ['init', '-q'], { cwd: folder, env });
    execFileSync('git', ['add', '-A'], { cwd: folder, env });
    // No background gc (it would still be writing when the tree is removed).
    execFileSync('git', ['-c', 'gc.auto=0', '-c', 'maintenance.auto=false', 'commit', '-q', '-m', 'bench'], { cwd: folder, env });
}

/**
 * A snapshot (git engine, as agent tasks and chat turns take them) of a committed tree: the first one
 * with a fresh private directory, and the next after ten files changed, each against
 * `git status --porcelain` on the same tree, alternating.
 */
async function benchTree(id: string, label: string, folder: string, files: number, options: SnapshotBenchOptions, rounds: number): Promise<Figure[]> {
    const home = path.join(options.scratch, 'home');
    fs.mkdirSync(home, { recursive: true });
    const status = () => execFileSync('git', ['status', '--porcelain'], { cwd: folder, env: gitEnv(home), maxBuffer: 256 * 1024 * 1024 });
    status();
    const first: number[] = [];
    const next: number[] = [];
    const firstStatus: number[] = [];
    const nextStatus: number[] = [];
    const changedFiles: number[] = [];
    // When git held the contents (before it writes their tree): what a chat turn waits for before its agent starts.
    const kept = { first: [] as number[], next: [] as number[] };
    const take = async (snapshotter: WorkspaceSnapshotter, into: number[], keptInto: number[]) => {
        const start = now();
        let keptAt = Infinity;
        const snapshot = await snapshotter.take(folder, [], () => keptAt = now());
        into.push(now() - start);
        keptInto.push(keptAt - start);
        return snapshot;
    };
    const candidates = execFileSync('git', ['ls-files', '-z'], { cwd: folder, env: gitEnv(home), maxBuffer: 256 * 1024 * 1024 })
        .toString().split('\0').filter(name => name && !name.startsWith('.'));
    for (let round = 0; round < rounds; round++) {
        const store = path.join(options.scratch, `${id}-store-${round}`);
        const snapshotter = new WorkspaceSnapshotter({ gitDir: path.join(store, 'git'), blobs: new BlobStore(path.join(store, 'blobs')), warn: message => {
            throw new Error(message);
        } });
        firstStatus.push(timed(status));
        const before = await take(snapshotter, first, kept.first);
        for (let i = 0; i < 10; i++) {
            const file = path.join(folder, candidates[(round * 10 + i) * 7 % candidates.length]);
            fs.appendFileSync(file, `// round ${round}\n`);
        }
        nextStatus.push(timed(status));
        const after = await take(snapshotter, next, kept.next);
        changedFiles.push((await snapshotter.compare(before, after)).length);
        fs.rmSync(store, { recursive: true, force: true });
    }
    const figure = (kind: 'first' | 'next', samples: number[], baseline: number[]): Figure => {
        const measured = summarize(samples);
        const base = summarize(baseline);
        return {
            id: `snapshot-${id}-${kind}`,
            title: `${kind === 'first' ? 'First snapshot (new private git directory)' : 'Next snapshot (10 files changed)'} of ${label}`,
            unit: 'ms', measured, baselineName: '`git status --porcelain` on the same tree', baseline: base,
            goal: `≤ ${GOAL} × git status (median)`, goalMet: measured.median <= GOAL * base.median,
            notes: {
                files, 'contents kept (git holds them; its tree is written next), median ms': round(summarize(kept[kind]).median),
                ...(kind === 'next' ? { 'changes found': changedFiles.join('/') } : {})
            }
        };
    };
    return [figure('first', first, firstStatus), figure('next', next, nextStatus)];
}

/** What the file-by-file store (the fallback without git) takes for the same real project: for comparison. */
async function fileStoreFirst(folder: string, scratch: string): Promise<number> {
    const store = path.join(scratch, 'file-store');
    const snapshotter = new WorkspaceSnapshotter({ gitDir: path.join(store, 'git'), blobs: new BlobStore(path.join(store, 'blobs')), withoutGit: true, warn: () => undefined });
    const ms = await timedAsync(() => snapshotter.take(folder));
    fs.rmSync(store, { recursive: true, force: true });
    return ms;
}

export async function benchSnapshots(options: SnapshotBenchOptions): Promise<Figure[]> {
    const count = options.quick ? 2000 : 100_000;
    const generated = path.join(options.scratch, 'generated-tree');
    generateTree(generated, count);
    commitAll(generated, options.scratch);
    const figures = await benchTree('generated', `a generated tree of ${count.toLocaleString('en')} files`, generated, count, options, options.quick ? 1 : 5);
    fs.rmSync(generated, { recursive: true, force: true });

    const real = path.join(options.scratch, 'real-project');
    fs.cpSync(path.dirname(require.resolve(`${REAL_PROJECT}/package.json`, { paths: [REPO_ROOT] })), real, { recursive: true, dereference: true });
    commitAll(real, options.scratch);
    const realFiles = Number(execFileSync('git', ['ls-files'], { cwd: real, env: gitEnv(options.scratch), maxBuffer: 64 * 1024 * 1024 }).toString().split('\n').length - 1);
    const realFigures = await benchTree('real', `${REAL_PROJECT} (a real package, committed)`, real, realFiles, options, options.quick ? 1 : 5);
    const fileStore = await fileStoreFirst(real, options.scratch);
    fs.rmSync(real, { recursive: true, force: true });
    const [realFirst, ...rest] = realFigures;
    return [...figures, { ...realFirst, notes: { ...realFirst.notes, 'file-by-file store, first (ms)': round(fileStore, 0) } }, ...rest];
}
