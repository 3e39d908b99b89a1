import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { InstalledAcpAgent, InstalledAcpAgentSchema } from '../../common/registry/installed-acp-agent';
import { writeFileAtomic } from './write-file-atomic';

/** Names inside an agent's folder that are not versions: the record, and work in progress. */
const MANIFEST = 'installed.json';
const STAGING_PREFIX = '.install-';
const REPLACED_PREFIX = '.replaced-';
/** Work in progress older than this was left by a process that died; younger may be another backend's. */
const STALE_MS = 60 * 60 * 1000;

/**
 * One agent's folder, `<root>/<id>`: a folder per installed version and `installed.json`, which says
 * which version is current and how to start it. Private to the user (0700 folders, a 0600 record).
 * A version folder appears by one rename, and the record changes by one rename, so a reader sees the
 * old install or the new one, and a failure in between puts the old one back.
 */
export class InstalledAgentFolder {
    readonly manifestPath: string;

    constructor(readonly id: string, readonly directory: string) {
        this.manifestPath = path.join(directory, MANIFEST);
    }

    async exists(): Promise<boolean> {
        return fs.promises.lstat(this.directory).then(() => true, () => false);
    }

    /** Creates the folder (and `root`) private to the user; answers whether it was created now. */
    async create(): Promise<boolean> {
        await fs.promises.mkdir(path.dirname(this.directory), { recursive: true, mode: 0o700 });
        const created = !await this.exists();
        await fs.promises.mkdir(this.directory, { recursive: true, mode: 0o700 });
        await fs.promises.chmod(this.directory, 0o700);
        return created;
    }

    /** A fresh, private folder for one install, inside the agent's folder so that the final rename stays on one file system. */
    createStaging(): Promise<string> {
        return fs.promises.mkdtemp(path.join(this.directory, STAGING_PREFIX));
    }

    versionDirectory(version: string): string {
        return path.join(this.directory, version);
    }

    /** The current install, undefined when there is none; throws when the record is damaged. */
    async readManifest(): Promise<InstalledAcpAgent | undefined> {
        let text: string;
        try {
            text = await fs.promises.readFile(this.manifestPath, 'utf8');
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
                return undefined;
            }
            throw new Error(`The install record of agent "${this.id}" (${this.manifestPath}) cannot be read: ${(error as Error).message}`);
        }
        let parsed: ReturnType<typeof InstalledAcpAgentSchema.safeParse>;
        try {
            parsed = InstalledAcpAgentSchema.safeParse(JSON.parse(text));
        } catch (error) {
            throw new Error(`The install record of agent "${this.id}" (${this.manifestPath}) is not JSON: ${(error as Error).message}`);
        }
        if (!parsed.success || parsed.data.id !== this.id) {
            const why = parsed.success ? `it is for agent "${parsed.data.id}"` : formatZodIssues(parsed.error, 'record');
            throw new Error(`The install record of agent "${this.id}" (${this.manifestPath}) is damaged: ${why}`);
        }
        return parsed.data;
    }

    /**
     * Moves `content` into place as the folder of `manifest.version` and then records the manifest. A
     * folder of the same version already there (a reinstall) is set aside first and put back if
     * anything fails, then removed.
     */
    async commit(content: string, manifest: InstalledAcpAgent): Promise<void> {
        const target = this.versionDirectory(manifest.version);
        const aside = await fs.promises.lstat(target).then(() => path.join(this.directory, REPLACED_PREFIX + randomBytes(6).toString('hex')), () => undefined);
        if (aside) {
            await fs.promises.rename(target, aside);
        }
        try {
            await fs.promises.rename(content, target);
            await this.writeManifest(manifest);
        } catch (error) {
            await fs.promises.rm(target, { recursive: true, force: true });
            if (aside) {
                await fs.promises.rename(aside, target);
            }
            throw error;
        }
        if (aside) {
            await fs.promises.rm(aside, { recursive: true, force: true });
        }
    }

    writeManifest(manifest: InstalledAcpAgent): Promise<void> {
        return writeFileAtomic(this.manifestPath, JSON.stringify(manifest, undefined, 2) + '\n', 0o600);
    }

    /** Removes every version but `keep` (none for an agent that now runs through uvx), and what dead installs left. */
    async removeOtherVersions(keep: string | undefined, now = Date.now()): Promise<void> {
        for (const entry of await fs.promises.readdir(this.directory, { withFileTypes: true })) {
            const entryPath = path.join(this.directory, entry.name);
            const inProgress = entry.name.startsWith(STAGING_PREFIX) || entry.name.startsWith(MANIFEST + '.');
            if (entry.name === MANIFEST || entry.name === keep || (inProgress && now - (await fs.promises.lstat(entryPath)).mtimeMs < STALE_MS)) {
                continue;
            }
            await fs.promises.rm(entryPath, { recursive: true, force: true });
        }
    }

    remove(): Promise<void> {
        return fs.promises.rm(this.directory, { recursive: true, force: true });
    }
}
