import * as fs from 'fs';
import * as path from 'path';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';
import { AcpRegistryNpxDistribution } from '../../common/registry/acp-registry-schema';
import { InstalledAcpAgent } from '../../common/registry/installed-acp-agent';
import { parseNpmPackageSpec } from '../../common/registry/npm-package-spec';
import { InstallStep } from './install-step';
import { runFile } from './run-file';

export interface NpxInstallOptions {
    /** How npm is started: `npm` from PATH, or a test's stand-in (`node fake-npm.js`). */
    readonly npm: { readonly command: string; readonly args?: readonly string[] };
    /**
     * Passes `--ignore-scripts`. Off by default: agents rely on install scripts to fetch their native
     * parts (and `npx`, which the registry's entries are written for, runs them too). The scripts run
     * as the user, like the agent itself will.
     */
    readonly ignoreScripts: boolean;
    /** `win32`: an npm bin is a `.cmd` shim there, which Node does not start without a shell, so the launch is `node <bin>`. */
    readonly platform: string;
}

/**
 * `npm install --prefix <content> <package>@<version>` into the staging folder: the user's npm, its
 * registry and its configuration (`npm_config_registry`, `.npmrc`) apply, as they would for `npx`.
 * The version is the spec's (`@google/gemini-cli@0.27.3`), or else the entry's own version, never
 * whatever is latest. Answers the launch of the package's command, found as npx finds it.
 */
export async function installNpxDistribution(npx: AcpRegistryNpxDistribution, agentVersion: string, step: InstallStep,
    options: NpxInstallOptions): Promise<InstalledAcpAgent['launch']> {
    const spec = parseNpmPackageSpec(npx.package);
    if (!spec) {
        throw new Error(`Agent "${step.agentId}": "${npx.package}" is not an npm package name`);
    }
    const request = `${spec.name}@${spec.version ?? agentVersion}`;
    await fs.promises.mkdir(step.content, { mode: 0o700 });
    // A package.json of its own makes the folder the project npm installs into (npm would otherwise
    // look upwards for one); its name differs from any package so npm never refuses "itself".
    await fs.promises.writeFile(path.join(step.content, 'package.json'), JSON.stringify({ name: `acp-registry-install-${step.agentId}`, private: true }, undefined, 2));
    const npmArgs = [
        ...options.npm.args ?? [], 'install', '--prefix', step.content, '--no-audit', '--no-fund', '--no-update-notifier', '--save-exact',
        ...options.ignoreScripts ? ['--ignore-scripts'] : [], request
    ];
    await runFile(options.npm.command, npmArgs, { what: `npm install ${request}`, cwd: step.content, env: step.env, timeoutMs: step.toolTimeoutMs, signal: step.signal });
    const relative = await findBin(step.content, spec.name, request, step.agentId);
    const command = path.join(step.finalDirectory, relative);
    return options.platform === 'win32'
        ? { command: 'node', args: [command, ...npx.args], env: { ...npx.env } }
        : { command, args: [...npx.args], env: { ...npx.env } };
}

/**
 * The installed package's command, chosen as npx chooses: its only `bin`, or else the one named after
 * the package (without its scope). The file must lie inside the install folder; it is made executable.
 */
async function findBin(content: string, name: string, request: string, agentId: string): Promise<string> {
    const packageDir = path.join(content, 'node_modules', ...name.split('/'));
    let manifest: { name?: unknown; bin?: unknown };
    try {
        manifest = JSON.parse(await fs.promises.readFile(path.join(packageDir, 'package.json'), 'utf8'));
    } catch (error) {
        throw new Error(`Agent "${agentId}": npm install ${request} left no readable ${name}/package.json: ${(error as Error).message}`);
    }
    const unscoped = name.split('/').pop()!;
    const bins: Record<string, unknown> = typeof manifest.bin === 'string' ? { [unscoped]: manifest.bin }
        : typeof manifest.bin === 'object' && manifest.bin !== null ? manifest.bin as Record<string, unknown> : {};
    const names = Object.keys(bins);
    const chosen = names.length === 1 ? names[0] : names.find(bin => bin === unscoped);
    const file = chosen !== undefined ? bins[chosen] : undefined;
    if (typeof file !== 'string') {
        const why = names.length ? `several commands (${names.join(', ')}) and none is named "${unscoped}"` : 'no command (no "bin" in its package.json)';
        throw new Error(`Agent "${agentId}": the npm package ${request} has ${why}`);
    }
    const root = await fs.promises.realpath(content);
    const real = await fs.promises.realpath(path.join(packageDir, file)).catch(() => undefined);
    if (!real || !isPathWithin(real, root, path.sep)) {
        throw new Error(`Agent "${agentId}": the command "${chosen}" of ${request} (${file}) is ${real ? 'outside the install folder' : 'missing'}`);
    }
    const stat = await fs.promises.stat(real);
    await fs.promises.chmod(real, stat.mode | 0o500);
    return path.relative(root, real);
}
