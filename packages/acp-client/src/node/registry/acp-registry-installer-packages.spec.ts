import { expect } from 'chai';
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { findExecutable } from '@theia-cli-companion/cli-process/lib/node';
import { AcpRegistryInstaller, AcpRegistryInstallerOptions } from './acp-registry-installer';
import { expectFailure } from './test/expect-failure';
import { LoopbackServer } from './test/loopback-server';
import { RegistryInstallFixture, registryAgent } from './test/registry-install-fixture';

const FAKE_NPM = path.join(__dirname, 'test', 'fake-npm-main.js');

/** npx agents through an npm stand-in (and once through the real npm against a registry on 127.0.0.1), and uvx agents. */
describe('AcpRegistryInstaller with npx and uvx distributions', function (): void {
    this.timeout(20_000);
    let fixture: RegistryInstallFixture;
    let npmLog: string;

    before(function (): void {
        if (process.platform === 'win32') {
            this.skip();
        }
    });
    beforeEach(async () => {
        fixture = await RegistryInstallFixture.create();
        npmLog = path.join(fixture.dir, 'npm-log.json');
    });
    afterEach(() => fixture.dispose());

    const installer = (env: NodeJS.ProcessEnv = {}, options: Partial<AcpRegistryInstallerOptions> = {}) => new AcpRegistryInstaller({
        root: fixture.root, platform: 'linux', arch: 'x64', npm: { command: process.execPath, args: [FAKE_NPM] },
        env: { ...process.env, FAKE_NPM_LOG: npmLog, ...env }, ...options
    });
    const npxAgent = (pkg: string, version = '2.0.0') => registryAgent('acme', version, { npx: { package: pkg, args: ['--acp'], env: { ACME_NO_UPDATE: '1' } } });
    const npmCall = () => JSON.parse(fs.readFileSync(npmLog, 'utf8')) as { args: string[]; cwd: string; registry?: string };

    it('installs the package\'s version with the user\'s npm and registry, and launches the package\'s command', async () => {
        const { agent, warnings } = await installer({ npm_config_registry: 'http://127.0.0.1:9/' }).install(npxAgent('@acme/agent-cli@2.0.0'));
        const folder = path.join(fixture.root, 'acme', '2.0.0');
        expect(warnings).to.deep.equal([]);
        expect(agent).to.deep.include({
            distribution: 'npx', source: '@acme/agent-cli@2.0.0', directory: folder,
            launch: { command: path.join(folder, 'node_modules', '@acme', 'agent-cli', 'bin', 'cli.js'), args: ['--acp'], env: { ACME_NO_UPDATE: '1' } }
        });
        expect(execFileSync(agent.launch.command, agent.launch.args, { encoding: 'utf8' }).trim()).to.equal('@acme/agent-cli --acp');
        const { args, cwd, registry } = npmCall();
        expect(args).to.deep.equal(['install', '--prefix', cwd, '--no-audit', '--no-fund', '--no-update-notifier', '--save-exact', '@acme/agent-cli@2.0.0']);
        expect(path.dirname(cwd)).to.match(/acme\/\.install-[^/]+$/);
        expect(registry).to.equal('http://127.0.0.1:9/');
        expect(fixture.contents(path.join(fixture.root, 'acme'))).to.deep.equal(['2.0.0', 'installed.json']);
    });

    it('installs the entry\'s version when the package names none, and passes --ignore-scripts when asked', async () => {
        await installer({}, { ignoreScripts: true }).install(npxAgent('acme-agent', '3.1.4'));
        expect(npmCall().args.slice(-2)).to.deep.equal(['--ignore-scripts', 'acme-agent@3.1.4']);
    });

    it('says what npm said when it fails, and leaves nothing behind', async () => {
        await expectFailure(installer({ FAKE_NPM_FAIL: '1' }).install(npxAgent('@acme/agent-cli@2.0.0')),
            'Could not install agent "acme" 2.0.0: npm install @acme/agent-cli@2.0.0 failed: it exited with code 1:\nnpm error code E404\nnpm error 404 Not Found');
        expect(fixture.contents(fixture.root)).to.deep.equal([]);
    });

    it('says when the package has several commands and none is named after it', async () => {
        await expectFailure(installer({ FAKE_NPM_BIN: JSON.stringify({ one: 'bin/cli.js', two: 'bin/cli.js' }) }).install(npxAgent('@acme/agent-cli@2.0.0')),
            'Agent "acme": the npm package @acme/agent-cli@2.0.0 has several commands (one, two) and none is named "agent-cli"');
        await expectFailure(installer({ FAKE_NPM_BIN: JSON.stringify({ x: 'bin/none.js' }) }).install(npxAgent('@acme/agent-cli@2.0.0')),
            'Agent "acme": the command "x" of @acme/agent-cli@2.0.0 (bin/none.js) is missing');
        // From the package's folder up to the sandbox, where npm's log lies: outside the install folder.
        const outside = '../../../../../../../npm-log.json';
        await expectFailure(installer({ FAKE_NPM_BIN: JSON.stringify({ x: outside }) }).install(npxAgent('@acme/agent-cli@2.0.0')),
            `Agent "acme": the command "x" of @acme/agent-cli@2.0.0 (${outside}) is outside the install folder`);
        expect(fixture.contents(fixture.root)).to.deep.equal([]);
    });

    it('records a uvx agent without installing anything, and says when uvx is missing', async () => {
        const agent = registryAgent('minion-code', '0.1.5', { uvx: { package: 'minion-code@0.1.5', args: ['acp'] } });
        const emptyPath = fs.mkdtempSync(path.join(fixture.dir, 'path-'));
        const { agent: installed, warnings } = await installer({ PATH: emptyPath }).install(agent);
        expect(installed).to.deep.include({ distribution: 'uvx', source: 'minion-code@0.1.5', launch: { command: 'uvx', args: ['minion-code@0.1.5', 'acp'], env: {} } });
        expect(installed.directory).to.equal(undefined);
        expect(warnings).to.deep.equal(['"The minion-code agent" runs through uvx, which is not on the PATH; install uv (https://docs.astral.sh/uv/) before starting it']);
        expect(fixture.contents(path.join(fixture.root, 'minion-code'))).to.deep.equal(['installed.json']);

        fs.writeFileSync(path.join(emptyPath, 'uvx'), '#!/bin/sh\n', { mode: 0o755 });
        expect((await installer({ PATH: emptyPath }).install(agent)).warnings).to.deep.equal([]);
    });

    it('removes the installed versions when an agent moves to uvx', async () => {
        await installer().install(registryAgent('acme', '1.0.0', { npx: { package: 'acme-agent@1.0.0' }, uvx: { package: 'acme-agent' } }));
        await installer().install(registryAgent('acme', '1.1.0', { npx: { package: 'acme-agent@1.1.0' }, uvx: { package: 'acme-agent' } }), { kind: 'uvx' });
        expect(fixture.contents(path.join(fixture.root, 'acme'))).to.deep.equal(['installed.json']);
    });

    describe('with the real npm, against a registry served on 127.0.0.1', () => {
        let registry: LoopbackServer;
        let tarball: Buffer;

        before(async function (): Promise<void> {
            if (!await findExecutable('npm')) {
                this.skip();
            }
            registry = await LoopbackServer.start((request, response) => {
                if (request.url === '/real-acp-agent') {
                    const version = {
                        name: 'real-acp-agent', version: '1.0.0', bin: { 'real-acp-agent': 'cli.js' },
                        dist: { tarball: registry.url('/real-acp-agent/-/real-acp-agent-1.0.0.tgz'), integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}` }
                    };
                    const packument = { name: 'real-acp-agent', 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } };
                    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
                } else if (request.url === '/real-acp-agent/-/real-acp-agent-1.0.0.tgz') {
                    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
                } else {
                    response.writeHead(404).end('{}');
                }
            });
        });
        after(() => registry?.close());

        it('installs the package and its command runs', async function (): Promise<void> {
            this.timeout(90_000);
            tarball = fixture.archive('tar.gz', [
                { name: 'package/package.json', content: JSON.stringify({ name: 'real-acp-agent', version: '1.0.0', bin: { 'real-acp-agent': 'cli.js' } }) },
                { name: 'package/cli.js', content: '#!/usr/bin/env node\nconsole.log("real " + process.argv.slice(2).join(" "));\n' }
            ]);
            const home = fs.mkdtempSync(path.join(fixture.dir, 'home-'));
            // Nothing of the machine's npm configuration: its registry, cache and config files are the test's.
            const real = new AcpRegistryInstaller({
                root: fixture.root, platform: 'linux', arch: 'x64', env: {
                    PATH: process.env.PATH, HOME: home, npm_config_registry: registry.url('/'), npm_config_cache: path.join(home, 'cache'),
                    npm_config_userconfig: path.join(home, 'npmrc'), npm_config_globalconfig: path.join(home, 'global-npmrc')
                }
            });
            const { agent } = await real.install(registryAgent('real', '1.0.0', { npx: { package: 'real-acp-agent@1.0.0', args: ['--acp'] } }));
            expect(agent.launch.command).to.equal(path.join(fixture.root, 'real', '1.0.0', 'node_modules', 'real-acp-agent', 'cli.js'));
            expect(execFileSync(agent.launch.command, agent.launch.args, { encoding: 'utf8' }).trim()).to.equal('real --acp');
        });
    });
});
