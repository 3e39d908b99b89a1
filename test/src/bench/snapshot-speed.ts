import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BlobStore, DEFAULT_SNAPSHOT_LIMITS, takeSnapshot } from '@theia-cli-companion/ai-cli-core/lib/node';

/**
 * What an agent task's snapshot of a folder costs: the first one (every file read and stored) against
 * the next (sizes and mtimes reused), in the same run. Not part of the test command:
 * `node test/lib/bench/snapshot-speed.js <folder> [repetitions]`.
 */
async function main(): Promise<void> {
    const folder = path.resolve(process.argv[2] ?? '.');
    const repetitions = Number(process.argv[3] ?? 5);
    const rows: { first: number; next: number; files: number; bytes: number }[] = [];
    for (let i = 0; i < repetitions; i++) {
        const store = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-speed-'));
        try {
            const blobs = new BlobStore(path.join(store, 'blobs'));
            let start = process.hrtime.bigint();
            const first = await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS);
            const firstMs = Number(process.hrtime.bigint() - start) / 1e6;
            // As if the first had been taken a while ago: files untouched since are not racy.
            const aged = { ...first, takenAt: first.takenAt + 60_000 };
            start = process.hrtime.bigint();
            await takeSnapshot(folder, blobs, DEFAULT_SNAPSHOT_LIMITS, aged);
            const nextMs = Number(process.hrtime.bigint() - start) / 1e6;
            rows.push({ first: firstMs, next: nextMs, files: first.files.size, bytes: [...first.files.values()].reduce((sum, file) => sum + file.size, 0) });
        } finally {
            fs.rmSync(store, { recursive: true, force: true });
        }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const first = median(rows.map(row => row.first));
    const next = median(rows.map(row => row.next));
    console.log(JSON.stringify({
        folder, files: rows[0].files, MiB: +(rows[0].bytes / 1048576).toFixed(1), repetitions,
        firstMsMedian: +first.toFixed(0), nextMsMedian: +next.toFixed(0), speedup: +(first / next).toFixed(1)
    }));
}

main().catch(error => {
    console.error(error);
    process.exit(1);
});
