import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';
import { AcpRegistryBinaryTarget } from '../../common/registry/acp-registry-schema';
import { InstalledAcpAgent } from '../../common/registry/installed-acp-agent';
import { archiveKindOf } from './archive-kind';
import { downloadBounded } from './bounded-download';
import { extractArchive } from './extract-archive';
import { InstallStep } from './install-step';

/**
 * Downloads the platform's archive (hashing it as it streams to disk), refuses it when the entry
 * pins a SHA-256 and the bytes differ, unpacks it and finds the command inside. Answers what to
 * launch, with paths where the folder will be after the caller moves it into place.
 */
export async function installBinaryDistribution(target: AcpRegistryBinaryTarget, step: InstallStep): Promise<InstalledAcpAgent['launch']> {
    const download = path.join(step.staging, 'download');
    const actual = await downloadToFile(target.archive, download, step);
    if (target.sha256 && target.sha256 !== actual) {
        throw new Error(`The archive of agent "${step.agentId}" from ${target.archive} has SHA-256 ${actual}, but the registry expects ${target.sha256}; nothing was installed`);
    }
    const kind = archiveKindOf(target.archive);
    await fs.promises.mkdir(step.content, { mode: 0o700 });
    if (kind === 'raw') {
        // The download is the executable itself: it takes the name the entry runs.
        const executable = path.join(step.content, target.cmd);
        await fs.promises.mkdir(path.dirname(executable), { recursive: true, mode: 0o700 });
        await fs.promises.rename(download, executable);
    } else {
        await extractArchive(download, kind, step.content, { url: target.archive, env: step.env, timeoutMs: step.toolTimeoutMs, signal: step.signal });
    }
    const relative = await findCommand(step.content, target.cmd, step.agentId);
    return { command: path.join(step.finalDirectory, relative), args: [...target.args], env: { ...target.env } };
}

async function downloadToFile(url: string, file: string, step: InstallStep): Promise<string> {
    const hash = createHash('sha256');
    const handle = await fs.promises.open(file, 'wx', 0o600);
    try {
        await downloadBounded(url, {
            what: `the archive of agent "${step.agentId}"`, timeoutMs: step.downloadTimeoutMs, maxBytes: step.maxDownloadBytes, signal: step.signal
        }, async chunk => {
            hash.update(chunk);
            await handle.write(chunk);
        });
    } finally {
        await handle.close();
    }
    return hash.digest('hex');
}

/**
 * The entry's `cmd` inside the unpacked folder, made executable. Archives that wrap everything in
 * one top folder (`agent-1.2.3/agent`) are common; the registry's verifier searches for the command,
 * we look in that single folder too, and nowhere else. Wherever it is found, its real path must lie
 * inside: a link to `/usr/bin/…` is not an installed agent.
 */
async function findCommand(content: string, cmd: string, agentId: string): Promise<string> {
    const root = await fs.promises.realpath(content);
    const top = await fs.promises.readdir(root, { withFileTypes: true });
    const candidates = [path.join(root, cmd), ...top.length === 1 && top[0].isDirectory() ? [path.join(root, top[0].name, cmd)] : []];
    for (const candidate of candidates) {
        const real = await fs.promises.realpath(candidate).catch(() => undefined);
        if (!real) {
            continue;
        }
        if (!isPathWithin(real, root, path.sep)) {
            throw new Error(`Refusing agent "${agentId}": its command "${cmd}" leads outside the install folder`);
        }
        const stat = await fs.promises.stat(real);
        if (!stat.isFile()) {
            throw new Error(`Agent "${agentId}": its command "${cmd}" is not a file in the archive`);
        }
        await fs.promises.chmod(real, stat.mode | 0o500);
        return path.relative(root, candidate);
    }
    const names = top.map(entry => entry.name + (entry.isDirectory() ? '/' : '')).slice(0, 10).join(', ');
    throw new Error(`Agent "${agentId}": the archive has no "${cmd}" to run (it holds ${names || 'nothing'})`);
}
