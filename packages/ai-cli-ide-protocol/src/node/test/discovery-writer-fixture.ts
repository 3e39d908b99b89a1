/**
 * A stand-in for a Theia backend in tests: writes the discovery files of every IDE-mode flavour for a
 * server of this process (ports from the command line), exactly as ai-cli-core's DiscoveryFiles does
 * (private directory, atomic private file, the flavour's own body), prints what it wrote as one JSON
 * line and stays alive until it is killed. The directories come from TMPDIR, QWEN_HOME and
 * CLAUDE_CONFIG_DIR, which the test points into its sandbox.
 */
import * as path from 'path';
import { IDE_MODE_FLAVOURS } from '../discovery/ide-mode-flavours';
import { ensurePrivateDirectory, writePrivateFileAtomic } from '@theia-cli-companion/safe-files/lib/node';
import { currentProcessIdentity } from '@theia-cli-companion/cli-process/lib/node';

async function main(): Promise<void> {
    const ports = process.argv.slice(2).map(Number);
    const flavours = Object.values(IDE_MODE_FLAVOURS);
    if (ports.length !== flavours.length || !ports.every(port => Number.isInteger(port) && port > 0 && port < 65536)) {
        throw new Error(`Usage: discovery-writer-fixture <port> × ${flavours.length}`);
    }
    const files: string[] = [];
    for (const [index, flavour] of flavours.entries()) {
        const endpoint = { port: ports[index], authToken: 'fixture-token', workspaceRoots: [], serverPid: process.pid };
        const dir = flavour.discoveryDirectory();
        await ensurePrivateDirectory(dir);
        const file = path.join(dir, flavour.discoveryFileName(endpoint));
        await writePrivateFileAtomic(file, JSON.stringify(flavour.discoveryFileContent(endpoint)));
        files.push(file);
    }
    process.stdout.write(JSON.stringify({ identity: currentProcessIdentity(), files }) + '\n');
    // Alive like a backend serving its windows, until the test kills it.
    setInterval(() => undefined, 60_000);
}

main().catch(error => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
});
