import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AcpRegistryAgent, AcpRegistryAgentSchema } from '../../../common/registry/acp-registry-schema';
import { LoopbackServer } from './loopback-server';

export interface ArchiveFile {
    readonly name: string;
    readonly content?: string;
    /** A symbolic link to this target instead of a file. */
    readonly linkTo?: string;
    readonly mode?: number;
}

/**
 * A sandbox for installer specs: a temporary folder (the install root is `<dir>/acp-agents`) and a
 * loopback server that serves the files a spec publishes under `/files/<name>`.
 */
export class RegistryInstallFixture {
    protected constructor(readonly dir: string, readonly server: LoopbackServer, protected readonly files: Map<string, Buffer>, readonly requests: string[]) { }

    static async create(): Promise<RegistryInstallFixture> {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-registry-spec-'));
        const files = new Map<string, Buffer>();
        const requests: string[] = [];
        const server = await LoopbackServer.start((request, response) => {
            requests.push(request.url ?? '');
            const file = files.get(decodeURIComponent((request.url ?? '').replace(/^\/files\//, '')));
            if (file) {
                response.writeHead(200, { 'content-length': file.length, 'content-type': 'application/octet-stream' }).end(file);
            } else {
                response.writeHead(404, 'Not Found').end();
            }
        });
        return new RegistryInstallFixture(dir, server, files, requests);
    }

    get root(): string {
        return path.join(this.dir, 'acp-agents');
    }

    async dispose(): Promise<void> {
        await this.server.close();
        fs.rmSync(this.dir, { recursive: true, force: true });
    }

    /** Publishes `content` as `/files/<name>` and answers its URL and SHA-256. */
    publish(name: string, content: Buffer): { url: string; sha256: string } {
        this.files.set(name, content);
        return { url: this.server.url(`/files/${encodeURIComponent(name)}`), sha256: createHash('sha256').update(content).digest('hex') };
    }

    /** Builds an archive with the system's tar or zip from `files`; `tarArgs` go before the names (e.g. `-P`). */
    archive(kind: 'tar.gz' | 'zip', files: ArchiveFile[], options: { cwd?: string; tarArgs?: string[] } = {}): Buffer {
        const source = fs.mkdtempSync(path.join(this.dir, 'archive-'));
        for (const file of files) {
            const target = path.join(source, file.name);
            fs.mkdirSync(path.dirname(target), { recursive: true });
            if (file.linkTo !== undefined) {
                fs.symlinkSync(file.linkTo, target);
            } else {
                fs.writeFileSync(target, file.content ?? '', { mode: file.mode ?? 0o644 });
            }
        }
        const output = path.join(this.dir, `archive-${Date.now()}-${Math.random().toString(36).slice(2)}.${kind}`);
        const cwd = options.cwd ? path.join(source, options.cwd) : source;
        fs.mkdirSync(cwd, { recursive: true });
        const names = files.map(file => path.relative(cwd, path.join(source, file.name)));
        if (kind === 'zip') {
            execFileSync('zip', ['-q', '--symlinks', output, ...names], { cwd });
        } else {
            execFileSync('tar', ['-czf', output, ...options.tarArgs ?? [], ...names], { cwd, stdio: ['ignore', 'ignore', 'ignore'] });
        }
        return fs.readFileSync(output);
    }

    /** The names in `folder`, or undefined when it does not exist. */
    contents(folder: string): string[] | undefined {
        return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : undefined;
    }
}

/** A shell script agent that prints who it is, its greeting variable and its arguments. */
export function scriptAgent(version: string): string {
    return `#!/bin/sh\necho "agent ${version} $GREETING $*"\n`;
}

/** A registry entry as the registry would list it, parsed as the client would. */
export function registryAgent(id: string, version: string, distribution: object): AcpRegistryAgent {
    return AcpRegistryAgentSchema.parse({ id, name: `The ${id} agent`, version, description: `${id}, for tests`, distribution });
}
