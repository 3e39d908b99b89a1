import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as path from 'path';
import { REPO_ROOT } from './theia-backend';

/** The scripted ACP agent as the published acp-client ships it: what every agent of this registry runs. */
export const FAKE_AGENT_MAIN = path.join(REPO_ROOT, 'packages', 'acp-client', 'lib', 'node', 'test', 'fake-acp-agent-main.js');

/**
 * An ACP Registry on 127.0.0.1 for the tests, and everything its agents install from: the registry
 * index (as `/registry.json`, or anything else a test puts under a path), binary archives (`/files/…`)
 * and an npm registry (`/npm/…`: packuments and tarballs, as npm asks for them). Each agent runs the
 * scripted ACP agent. Also answers `/slow/…` after `slowMs` and 404 for anything else.
 */
export class AcpRegistryHost {
    protected readonly files = new Map<string, { body: Buffer; type: string }>();
    readonly requests: string[] = [];
    protected server?: http.Server;

    constructor(protected readonly workDir: string) {
        fs.mkdirSync(workDir, { recursive: true });
    }

    async start(): Promise<void> {
        this.server = http.createServer((request, response) => {
            const url = request.url ?? '';
            this.requests.push(url);
            const file = this.files.get(decodeURIComponent(url.split('?')[0]));
            if (file) {
                response.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
            } else {
                response.writeHead(404, 'Not Found', { 'content-type': 'text/plain' }).end('not found');
            }
        });
        await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve));
    }

    async stop(): Promise<void> {
        this.server?.closeAllConnections();
        await new Promise<void>(resolve => this.server ? this.server.close(() => resolve()) : resolve());
    }

    url(pathname: string): string {
        return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${pathname}`;
    }

    /** What npm is pointed at (npm_config_registry) for `npx` distributions. */
    get npmRegistry(): string {
        return this.url('/npm/');
    }

    put(pathname: string, body: string | Buffer, type = 'application/json'): void {
        this.files.set(pathname, { body: Buffer.isBuffer(body) ? body : Buffer.from(body), type });
    }

    /** Serves the registry index with these agents at `pathname`. */
    putRegistry(agents: object[], pathname = '/registry.json'): void {
        this.put(pathname, JSON.stringify({ version: '1.0.0', agents, extensions: [] }, undefined, 2));
    }

    /**
     * A `.tar.gz` with `bin/agent`, a shell script that runs the scripted agent, served at `/files/<name>`;
     * its URL and SHA-256.
     */
    putBinaryArchive(name: string, version: string): { url: string; sha256: string } {
        const dir = fs.mkdtempSync(path.join(this.workDir, 'binary-'));
        fs.mkdirSync(path.join(dir, 'bin'));
        fs.writeFileSync(path.join(dir, 'bin', 'agent'), `#!/bin/sh\n# ${name} ${version}\nexec "${process.execPath}" "${FAKE_AGENT_MAIN}" "$@"\n`, { mode: 0o755 });
        const archive = path.join(this.workDir, `${name}-${version}.tar.gz`);
        execFileSync('tar', ['-czf', archive, 'bin'], { cwd: dir });
        const body = fs.readFileSync(archive);
        this.put(`/files/${name}-${version}.tar.gz`, body, 'application/gzip');
        return { url: this.url(`/files/${name}-${version}.tar.gz`), sha256: createHash('sha256').update(body).digest('hex') };
    }

    /** Publishes an npm package `name@version` whose one executable runs the scripted agent. */
    putNpmPackage(name: string, version: string): void {
        const dir = fs.mkdtempSync(path.join(this.workDir, 'npm-'));
        const pkg = path.join(dir, 'package');
        fs.mkdirSync(pkg);
        const manifest = { name, version, bin: { 'fake-registry-agent': 'agent.js' }, license: 'EPL-2.0' };
        fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify(manifest));
        fs.writeFileSync(path.join(pkg, 'agent.js'), `#!/usr/bin/env node\nrequire(${JSON.stringify(FAKE_AGENT_MAIN)});\n`, { mode: 0o755 });
        const tarball = path.join(this.workDir, `${name.replace(/[@/]/g, '_')}-${version}.tgz`);
        execFileSync('tar', ['-czf', tarball, 'package'], { cwd: dir });
        const body = fs.readFileSync(tarball);
        const tarballPath = `/npm/${name}/-/${name.split('/').pop()}-${version}.tgz`;
        this.put(tarballPath, body, 'application/octet-stream');
        const packument = {
            name, 'dist-tags': { latest: version },
            versions: {
                [version]: {
                    ...manifest, _id: `${name}@${version}`,
                    dist: {
                        tarball: this.url(tarballPath),
                        shasum: createHash('sha1').update(body).digest('hex'),
                        integrity: `sha512-${createHash('sha512').update(body).digest('base64')}`
                    }
                }
            }
        };
        // npm asks for a scoped package as /@scope%2fname.
        this.put(`/npm/${name}`, JSON.stringify(packument));
    }
}
