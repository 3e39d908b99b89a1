/**
 * A new backend's start-up scan in tests: runs the stale-file cleaner over every IDE-mode flavour as
 * ai-cli-core's WindowServerRegistry does (default options: the real process table, no live ports)
 * and prints who it is, how it sees itself in the process table, and what it removed and kept as one
 * JSON line.
 */
import { IDE_MODE_FLAVOURS } from '../discovery/ide-mode-flavours';
import { DiscoveryFileVerdict, removeStaleDiscoveryFiles } from '../discovery/discovery-file-cleaner';
import { currentProcessIdentity, SYSTEM_PROCESSES } from '@theia-cli-companion/cli-process/lib/node';

async function main(): Promise<void> {
    const removed: DiscoveryFileVerdict[] = [];
    const kept: DiscoveryFileVerdict[] = [];
    for (const flavour of Object.values(IDE_MODE_FLAVOURS)) {
        const scan = await removeStaleDiscoveryFiles(flavour);
        removed.push(...scan.removed);
        kept.push(...scan.kept);
    }
    process.stdout.write(JSON.stringify({ identity: currentProcessIdentity(), self: SYSTEM_PROCESSES.find(process.pid), removed, kept }) + '\n');
}

main().catch(error => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
});
