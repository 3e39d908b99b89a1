import * as fs from 'fs';
import * as path from 'path';
import { describeError, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { AcpDistributionKind, AcpRegistryAgent, AcpRegistryAgentSchema, ACP_REGISTRY_ID } from '../../common/registry/acp-registry-schema';
import { ChosenAcpDistribution, chooseAcpDistribution } from '../../common/registry/choose-acp-distribution';
import { InstalledAcpAgent } from '../../common/registry/installed-acp-agent';
import { registryPlatformOf } from '../../common/registry/registry-platform';
import { installBinaryDistribution } from './install-binary-distribution';
import { installNpxDistribution, NpxInstallOptions } from './install-npx-distribution';
import { InstallStep } from './install-step';
import { InstalledAgentFolder } from './installed-agent-folder';
import { uvxLaunch } from './uvx-launch';

export interface AcpRegistryInstallerOptions {
    /** The user's folder for registry agents, e.g. `<config dir>/acp-agents`; created private (0700). */
    readonly root: string;
    /** Node's `process.platform` and `process.arch` by default; they choose the binary build. */
    readonly platform?: string;
    readonly arch?: string;
    /** The environment of npm, tar and unzip (and the PATH searched for uvx and unzip); `process.env` by default. */
    readonly env?: NodeJS.ProcessEnv;
    /** `npm` from the PATH by default. */
    readonly npm?: NpxInstallOptions['npm'];
    /** See `NpxInstallOptions.ignoreScripts`; false by default. */
    readonly ignoreScripts?: boolean;
    /** For one archive download; 10 minutes by default (agents are tens to a hundred MiB). */
    readonly downloadTimeoutMs?: number;
    /** 500 MiB by default. */
    readonly maxDownloadBytes?: number;
    /** For npm install, tar and unzip; 10 minutes by default. */
    readonly toolTimeoutMs?: number;
}

export interface AcpInstallOptions {
    /** Install this way rather than the preferred one (binary, then npx, then uvx). */
    readonly kind?: AcpDistributionKind;
    readonly signal?: AbortSignal;
}

export interface AcpAgentInstallResult {
    readonly agent: InstalledAcpAgent;
    /** What the user must still do before the agent can start, e.g. install uv. */
    readonly warnings: string[];
}

export interface InstalledAcpAgents {
    readonly agents: InstalledAcpAgent[];
    /** One sentence per agent folder whose record is missing or damaged. */
    readonly problems: string[];
}

/**
 * Installs agents from the ACP Registry for this user, each into `<root>/<id>/<version>`, built in a
 * temporary folder beside it and renamed into place, so a failed install leaves nothing (and an
 * update that fails leaves the old version running). `<root>/<id>/installed.json` records what to
 * launch. Installing a new version is how an agent is updated; the old version's folder goes once the
 * new one is recorded. Calls for the same agent run one after the other.
 */
export class AcpRegistryInstaller {
    protected readonly queues = new Map<string, Promise<unknown>>();
    protected readonly env: NodeJS.ProcessEnv;

    constructor(protected readonly options: AcpRegistryInstallerOptions) {
        this.env = options.env ?? process.env;
    }

    get root(): string {
        return this.options.root;
    }

    install(entry: AcpRegistryAgent, options: AcpInstallOptions = {}): Promise<AcpAgentInstallResult> {
        // Checked again here: the entry may have crossed an RPC boundary since the registry was parsed.
        const parsed = AcpRegistryAgentSchema.safeParse(entry);
        if (!parsed.success) {
            const id = typeof (entry as { id?: unknown })?.id === 'string' ? ` "${(entry as { id: string }).id}"` : '';
            return Promise.reject(new Error(`The registry entry${id} cannot be installed: ${formatZodIssues(parsed.error, 'entry')}`));
        }
        const agent = parsed.data;
        return this.serialized(agent.id, () => this.installNow(agent, options).catch(error => {
            throw new Error(`Could not install agent "${agent.id}" ${agent.version}: ${describeError(error)}`);
        }));
    }

    async list(): Promise<InstalledAcpAgents> {
        const entries = await fs.promises.readdir(this.root, { withFileTypes: true }).catch(error => {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
                return [];
            }
            throw new Error(`The folder of installed ACP agents (${this.root}) cannot be read: ${describeError(error)}`);
        });
        const agents: InstalledAcpAgent[] = [];
        const problems: string[] = [];
        for (const entry of entries.filter(candidate => candidate.isDirectory() && ACP_REGISTRY_ID.test(candidate.name))) {
            try {
                const agent = await this.folder(entry.name).readManifest();
                if (agent) {
                    agents.push(agent);
                } else {
                    problems.push(`The folder of agent "${entry.name}" (${path.join(this.root, entry.name)}) has no install record; install the agent again or remove it`);
                }
            } catch (error) {
                problems.push(describeError(error));
            }
        }
        return { agents: agents.sort((a, b) => a.id.localeCompare(b.id)), problems };
    }

    /** The current install of `id`, undefined when it is not installed; throws when its record is damaged. */
    async installed(id: string): Promise<InstalledAcpAgent | undefined> {
        return this.folder(id).readManifest();
    }

    /** Removes every version of `id`; answers whether there was anything to remove. */
    async remove(id: string): Promise<boolean> {
        const folder = this.folder(id);
        return this.serialized(id, async () => {
            const existed = await folder.exists();
            await folder.remove();
            return existed;
        });
    }

    protected async installNow(agent: AcpRegistryAgent, options: AcpInstallOptions): Promise<AcpAgentInstallResult> {
        const platform = this.options.platform ?? process.platform;
        const chosen = chooseAcpDistribution(agent, registryPlatformOf(platform, this.options.arch ?? process.arch), options.kind);
        if (typeof chosen === 'string') {
            throw new Error(chosen);
        }
        const folder = this.folder(agent.id);
        const created = await folder.create();
        try {
            return chosen.kind === 'uvx' ? await this.recordUvx(agent, chosen, folder) : await this.installFiles(agent, chosen, folder, options.signal);
        } catch (error) {
            if (created) {
                await folder.remove();
            }
            throw error;
        }
    }

    protected async installFiles(agent: AcpRegistryAgent, chosen: Exclude<ChosenAcpDistribution, { kind: 'uvx' }>, folder: InstalledAgentFolder,
        signal: AbortSignal | undefined): Promise<AcpAgentInstallResult> {
        const staging = await folder.createStaging();
        const step: InstallStep = {
            agentId: agent.id, staging, content: path.join(staging, 'content'), finalDirectory: folder.versionDirectory(agent.version), env: this.env, signal,
            downloadTimeoutMs: this.options.downloadTimeoutMs ?? 10 * 60_000, maxDownloadBytes: this.options.maxDownloadBytes ?? 500 * 1024 * 1024,
            toolTimeoutMs: this.options.toolTimeoutMs ?? 10 * 60_000
        };
        try {
            const launch = chosen.kind === 'binary'
                ? await installBinaryDistribution(chosen.target, step)
                : await installNpxDistribution(chosen.npx, agent.version, step, {
                    npm: this.options.npm ?? { command: 'npm' }, ignoreScripts: this.options.ignoreScripts ?? false, platform: this.options.platform ?? process.platform
                });
            const manifest = this.manifestOf(agent, chosen.kind, chosen.kind === 'binary' ? chosen.target.archive : chosen.npx.package, step.finalDirectory, launch);
            await folder.commit(step.content, manifest);
            await folder.removeOtherVersions(agent.version);
            return { agent: manifest, warnings: [] };
        } finally {
            await fs.promises.rm(staging, { recursive: true, force: true });
        }
    }

    protected async recordUvx(agent: AcpRegistryAgent, chosen: Extract<ChosenAcpDistribution, { kind: 'uvx' }>, folder: InstalledAgentFolder): Promise<AcpAgentInstallResult> {
        const { launch, uvxFound } = await uvxLaunch(chosen.uvx, this.env.PATH);
        const manifest = this.manifestOf(agent, 'uvx', chosen.uvx.package, undefined, launch);
        await folder.writeManifest(manifest);
        await folder.removeOtherVersions(undefined);
        const warnings = uvxFound ? [] : [`"${agent.name}" runs through uvx, which is not on the PATH; install uv (https://docs.astral.sh/uv/) before starting it`];
        return { agent: manifest, warnings };
    }

    protected manifestOf(agent: AcpRegistryAgent, kind: AcpDistributionKind, source: string, directory: string | undefined,
        launch: InstalledAcpAgent['launch']): InstalledAcpAgent {
        // Without undefined fields: the result equals what reading installed.json back gives.
        return {
            id: agent.id, name: agent.name, version: agent.version, description: agent.description, ...agent.icon ? { icon: agent.icon } : {},
            distribution: kind, source, ...directory ? { directory } : {}, launch, installedAt: new Date().toISOString()
        };
    }

    /** The folder of `id`, which must be a registry id: it becomes a path. */
    protected folder(id: string): InstalledAgentFolder {
        if (typeof id !== 'string' || !ACP_REGISTRY_ID.test(id)) {
            throw new Error(`"${String(id).slice(0, 80)}" is not an agent id of the ACP registry`);
        }
        return new InstalledAgentFolder(id, path.join(this.root, id));
    }

    protected serialized<T>(id: string, work: () => Promise<T>): Promise<T> {
        const previous = this.queues.get(id) ?? Promise.resolve();
        const next = previous.catch(() => undefined).then(work);
        const settled = next.catch(() => undefined);
        this.queues.set(id, settled);
        void settled.then(() => this.queues.get(id) === settled && this.queues.delete(id));
        return next;
    }
}
