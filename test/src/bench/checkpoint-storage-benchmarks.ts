import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { AcpTurnCheckpoints } from '@theia-cli-companion/ai-acp-chat/lib/node';
import { diskUsage } from '@theia-cli-companion/ai-cli-core/lib/node';
import { Figure, round, summarize } from './stats';

export interface CheckpointStorageBenchOptions {
    readonly quick: boolean;
    /** A scratch folder, removed with the sandbox. */
    readonly scratch: string;
}

const MIB = 1024 * 1024;
/** The cap the measured store is kept under (the user's default is 1024 MiB; a small one shows the bound sooner; the quick run's fewer turns a smaller one). */
const CAP_MIB = 64;
const QUICK_CAP_MIB = 16;
const FILE_BYTES = MIB;

/** Chat checkpoints with no timer of their own: the benchmark says when a collection runs. */
class BenchCheckpoints extends AcpTurnCheckpoints {
    protected override scheduleCollection(): void {
        // collected by the benchmark, after each turn, or never (the baseline)
    }
}

function checkpointsIn(configDir: string): BenchCheckpoints {
    const container = new Container();
    const ignore = async () => undefined;
    container.bind(ILogger).toConstantValue({ debug: ignore, info: ignore, warn: ignore, error: ignore } as unknown as ILogger);
    container.bind(EnvVariablesServer).toConstantValue({ getConfigDirUri: async () => FileUri.create(configDir).toString() } as EnvVariablesServer);
    container.bind(BenchCheckpoints).toSelf().inSingletonScope();
    return container.get(BenchCheckpoints);
}

/**
 * 500 chat turns (50 quick) that each rewrite a 1 MiB file (random bytes: nothing compresses or repeats), in
 * a chat's checkpoints kept under a 64 MiB cap (16 MiB quick) and collected after every turn; against the same turns in a
 * store never collected, alternating turn by turn. After each turn: the store's size (blobs and records,
 * what the cap counts; the private git store beside it) and the turn's time, collection included.
 */
/** One side of the benchmark: its workspace folder, its checkpoint store, and what was measured of it. */
interface StoreRun {
    folder: string; checkpoints: BenchCheckpoints; store: string; turnMs: number[]; cappedMiB: number[]; gitMiB: number[]; restorable: number;
}

export async function benchCheckpointStorage(options: CheckpointStorageBenchOptions): Promise<Figure[]> {
    const turns = options.quick ? 50 : 500;
    const cap = options.quick ? QUICK_CAP_MIB : CAP_MIB;
    const sides = ['collected', 'baseline'] as const;
    const runs = Object.fromEntries(sides.map(side => {
        const folder = path.join(options.scratch, side, 'workspace');
        fs.mkdirSync(folder, { recursive: true });
        fs.writeFileSync(path.join(folder, 'data.bin'), crypto.randomBytes(FILE_BYTES));
        const checkpoints = checkpointsIn(path.join(options.scratch, side, 'config'));
        checkpoints.setRetention({ turnsPerChat: 100_000, maxStorageMegabytes: side === 'collected' ? cap : 1024 * 1024 });
        return [side, {
            folder, checkpoints, store: path.join(options.scratch, side, 'config', 'cli-companion', 'acp-checkpoints'),
            turnMs: [] as number[], cappedMiB: [] as number[], gitMiB: [] as number[], restorable: 0
        }];
    })) as Record<typeof sides[number], StoreRun>;
    try {
        for (let turn = 0; turn < turns; turn++) {
            for (const side of turn % 2 ? [...sides].reverse() : sides) {
                await runTurn(runs[side], side, turn, turn % 10 === 9 || turn === turns - 1);
            }
        }
        // How many turns still have their checkpoint (a restore of the others says it was removed).
        for (const run of Object.values(runs)) {
            run.restorable = await restorableTurns(run, turns);
        }
    } finally {
        for (const run of Object.values(runs)) {
            run.checkpoints.dispose();
            await run.checkpoints.settled();
        }
        fs.rmSync(options.scratch, { recursive: true, force: true });
    }
    const collected = runs.collected;
    const baseline = runs.baseline;
    const largest = Math.max(...collected.cappedMiB);
    return [{
        id: 'checkpoint-storage-size',
        title: `Chat checkpoint store over ${turns} turns that each rewrite a 1 MiB file, kept under a ${cap} MiB cap (blobs + records, every 10 turns)`,
        unit: 'MiB', measured: summarize(collected.cappedMiB), baselineName: 'the same turns in a store never collected', baseline: summarize(baseline.cappedMiB),
        goal: `≤ ${cap} MiB after every turn`, goalMet: largest <= cap,
        notes: {
            'largest (MiB)': round(largest, 1), 'never collected, at the end (MiB)': round(baseline.cappedMiB[baseline.cappedMiB.length - 1], 1),
            'private git store, largest (MiB)': round(Math.max(...collected.gitMiB), 1),
            'never collected: git store at the end (MiB)': round(baseline.gitMiB[baseline.gitMiB.length - 1], 1),
            'turns still restorable': `${collected.restorable} of ${turns}`
        }
    }, {
        id: 'checkpoint-storage-turn',
        title: `A chat turn's checkpoints (snapshot before and after, compare, store) with a collection after every turn, ${turns} turns rewriting a 1 MiB file`,
        unit: 'ms', measured: summarize(collected.turnMs), baselineName: 'the same turns, never collected', baseline: summarize(baseline.turnMs)
    }];
}

/** One turn that rewrites the file, collected after it on the `collected` side; its time, and the store's size when `measure`. */
async function runTurn(run: StoreRun, side: 'collected' | 'baseline', turn: number, measure: boolean): Promise<void> {
    const start = process.hrtime.bigint();
    await run.checkpoints.begin('bench-chat', `t${turn}`, [run.folder]);
    fs.writeFileSync(path.join(run.folder, 'data.bin'), crypto.randomBytes(FILE_BYTES));
    const ended = await run.checkpoints.end('bench-chat', `t${turn}`);
    if (ended?.changes.length !== 1) {
        throw new Error(`turn ${turn} (${side}) recorded ${ended?.changes.length ?? 0} changes, not 1: ${ended?.error ?? (ended ? 'no error' : 'nothing recorded')}`);
    }
    if (side === 'collected') {
        await run.checkpoints.collect();
    }
    run.turnMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (measure) {
        const [blobs, records, git] = await Promise.all(['blobs', 'chats', 'git'].map(part => diskUsage(path.join(run.store, part))));
        run.cappedMiB.push((blobs + records) / MIB);
        run.gitMiB.push(git / MIB);
    }
}

/** How many of the first `turns` turns still have their checkpoint. */
async function restorableTurns(run: StoreRun, turns: number): Promise<number> {
    let kept = 0;
    for (let turn = 0; turn < turns; turn++) {
        if (await run.checkpoints.checkpoint('bench-chat', `t${turn}`)) {
            kept++;
        }
    }
    return kept;
}
