import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { findExecutable } from '@theia-cli-companion/cli-process/lib/node';
import { InstalledAcpAgent } from '../../common/registry/installed-acp-agent';
import { AcpRegistryInstaller } from './acp-registry-installer';
import { escapeRegExp, expectFailure } from './test/expect-failure';
import { RegistryInstallFixture, registryAgent, scriptAgent } from './test/registry-install-fixture';

/** Runs what an install recorded, as the chat would start it, and answers its output. */
function launch(agent: InstalledAcpAgent): string {
    return execFileSync(agent.launch.command, agent.launch.args, { env: { ...process.env, ...agent.launch.env }, encoding: 'utf8' }).trim();
}

/** Binary agents from archives served on 127.0.0.1, and the life of an install: list, update, remove. */
describe('AcpRegistryInstaller with binary distributions', function (): void {
    this.timeout(20_000);
    let fixture: RegistryInstallFixture;
    let installer: AcpRegistryInstaller;

    before(function (): void {
        if (process.platform === 'win32') {
            this.skip();
        }
    });
    beforeEach(async () => {
        fixture = await RegistryInstallFixture.create();
        installer = new AcpRegistryInstaller({ root: fixture.root, platform: 'linux', arch: 'x64' });
    });
    afterEach(() => fixture.dispose());

    /** An agent whose linux-x86_64 build is `archive`, published under `name`. */
    const binaryAgent = (version: string, archive: Buffer, options: { name?: string; sha256?: string | false; cmd?: string } = {}) => {
        const published = fixture.publish(options.name ?? `tiny-${version}.tar.gz`, archive);
        const sha256 = options.sha256 === false ? undefined : options.sha256 ?? published.sha256;
        return {
            agent: registryAgent('tiny', version, {
                binary: { 'linux-x86_64': { archive: published.url, cmd: options.cmd ?? './agent', args: ['acp'], env: { GREETING: 'hello' }, sha256 } }
            }),
            ...published
        };
    };
    const tarWithAgent = (version: string) => fixture.archive('tar.gz', [{ name: 'agent', content: scriptAgent(version) }]);

    it('installs an archive whose SHA-256 matches into <root>/<id>/<version>, makes its command executable, and the command runs', async () => {
        const { agent } = binaryAgent('1.0.0', tarWithAgent('1.0.0'));
        const { agent: installed, warnings } = await installer.install(agent);
        const folder = path.join(fixture.root, 'tiny', '1.0.0');
        expect(warnings).to.deep.equal([]);
        expect(installed).to.deep.include({
            id: 'tiny', name: 'The tiny agent', version: '1.0.0', distribution: 'binary', directory: folder,
            launch: { command: path.join(folder, 'agent'), args: ['acp'], env: { GREETING: 'hello' } }
        });
        expect(launch(installed)).to.equal('agent 1.0.0 hello acp');
        expect(fixture.contents(path.join(fixture.root, 'tiny'))).to.deep.equal(['1.0.0', 'installed.json']);
        // Private to the user: the folders and the record.
        expect(fs.statSync(fixture.root).mode & 0o777).to.equal(0o700);
        expect(fs.statSync(path.join(fixture.root, 'tiny')).mode & 0o777).to.equal(0o700);
        expect(fs.statSync(path.join(fixture.root, 'tiny', 'installed.json')).mode & 0o777).to.equal(0o600);
        expect(JSON.parse(fs.readFileSync(path.join(fixture.root, 'tiny', 'installed.json'), 'utf8'))).to.deep.equal(installed);
        expect(await installer.installed('tiny')).to.deep.equal(installed);
        expect(await installer.list()).to.deep.equal({ agents: [installed], problems: [] });
    });

    it('refuses an archive whose SHA-256 differs, saying both, and leaves nothing behind', async () => {
        const wrong = 'ab'.repeat(32);
        const { agent, url, sha256 } = binaryAgent('1.0.0', tarWithAgent('1.0.0'), { sha256: wrong });
        await expectFailure(installer.install(agent),
            `Could not install agent "tiny" 1.0.0: The archive of agent "tiny" from ${url} has SHA-256 ${sha256}, but the registry expects ${wrong}; nothing was installed`);
        expect(fixture.contents(fixture.root)).to.deep.equal([]);
        expect(await installer.installed('tiny')).to.equal(undefined);
    });

    it('refuses an archive with an entry that climbs out of the folder, before unpacking anything', async () => {
        const archive = fixture.archive('tar.gz', [{ name: 'agent', content: scriptAgent('1.0.0') }, { name: 'escape', content: 'outside' }], { cwd: 'inner', tarArgs: ['-P'] });
        const { agent, url } = binaryAgent('1.0.0', archive);
        await expectFailure(installer.install(agent), `Refusing the archive from ${url}: entries point outside the install folder ("../agent", "../escape")`);
        expect(fixture.contents(fixture.root)).to.deep.equal([]);
        expect(fs.existsSync(path.join(fixture.root, 'escape'))).to.equal(false);
    });

    it('refuses an archive whose link points outside the folder', async () => {
        const archive = fixture.archive('tar.gz', [{ name: 'agent', content: scriptAgent('1.0.0') }, { name: 'config', linkTo: '/etc' }]);
        const { agent, url } = binaryAgent('1.0.0', archive);
        await expectFailure(installer.install(agent), `Refusing the archive from ${url}: its link "config" points outside the install folder`);
        expect(fixture.contents(fixture.root)).to.deep.equal([]);
    });

    it('refuses a command that is a link to a program outside the folder', async () => {
        const archive = fixture.archive('tar.gz', [{ name: 'agent', linkTo: '/bin/sh' }]);
        await expectFailure(installer.install(binaryAgent('1.0.0', archive).agent), /its link "agent" points outside the install folder/);
    });

    it('says when there is no build for this platform, and touches nothing', async () => {
        const agent = registryAgent('tiny', '1.0.0', { binary: { 'darwin-aarch64': { archive: 'https://example.com/tiny.tar.gz', cmd: './agent' } } });
        await expectFailure(installer.install(agent),
            'Could not install agent "tiny" 1.0.0: Agent "tiny" has no build for linux-x86_64 (its builds are for darwin-aarch64), and no npx or uvx package');
        expect(fixture.contents(fixture.root)).to.equal(undefined);
        expect(fixture.requests).to.deep.equal([]);
    });

    it('says when the archive has no such command, and what it holds', async () => {
        const { agent } = binaryAgent('1.0.0', tarWithAgent('1.0.0'), { cmd: './missing' });
        await expectFailure(installer.install(agent), 'Agent "tiny": the archive has no "./missing" to run (it holds agent)');
        expect(fixture.contents(fixture.root)).to.deep.equal([]);
    });

    it('says which URL answered which status', async () => {
        const agent = registryAgent('tiny', '1.0.0', { binary: { 'linux-x86_64': { archive: fixture.server.url('/files/gone.tar.gz'), cmd: './agent' } } });
        await expectFailure(installer.install(agent), `Could not download the archive of agent "tiny": ${fixture.server.url('/files/gone.tar.gz')} answered HTTP 404 Not Found`);
    });

    it('refuses an archive larger than the limit', async () => {
        const small = new AcpRegistryInstaller({ root: fixture.root, platform: 'linux', arch: 'x64', maxDownloadBytes: 64 });
        const { agent, url } = binaryAgent('1.0.0', tarWithAgent('1.0.0'));
        await expectFailure(small.install(agent), new RegExp(`Refusing the archive of agent "tiny" from ${escapeRegExp(url)}: it is larger than the limit of 64 bytes`));
        expect(fixture.contents(fixture.root)).to.deep.equal([]);
    });

    it('finds the command in an archive that wraps everything in one folder', async () => {
        const archive = fixture.archive('tar.gz', [{ name: 'tiny-1.0.0/agent', content: scriptAgent('1.0.0') }, { name: 'tiny-1.0.0/README', content: 'hi' }]);
        const { agent: installed } = await installer.install(binaryAgent('1.0.0', archive).agent);
        expect(installed.launch.command).to.equal(path.join(fixture.root, 'tiny', '1.0.0', 'tiny-1.0.0', 'agent'));
        expect(launch(installed)).to.equal('agent 1.0.0 hello acp');
    });

    it('installs a download that is the executable itself (no archive suffix) under the command\'s name', async () => {
        const { agent } = binaryAgent('1.0.0', Buffer.from(scriptAgent('1.0.0')), { name: 'tiny-linux-amd64', sha256: false });
        const { agent: installed } = await installer.install(agent);
        expect(installed.launch.command).to.equal(path.join(fixture.root, 'tiny', '1.0.0', 'agent'));
        expect(launch(installed)).to.equal('agent 1.0.0 hello acp');
    });

    it('unpacks a zip archive', async function (): Promise<void> {
        if (!await findExecutable('zip') || !await findExecutable('unzip')) {
            this.skip();
        }
        const { agent } = binaryAgent('1.0.0', fixture.archive('zip', [{ name: 'bin/agent', content: scriptAgent('1.0.0') }]), { name: 'tiny.zip', cmd: 'bin/agent' });
        const { agent: installed } = await installer.install(agent);
        expect(launch(installed)).to.equal('agent 1.0.0 hello acp');
    });

    it('updates by installing the new version, then removing the old one; a failed update keeps the old one', async () => {
        await installer.install(binaryAgent('1.0.0', tarWithAgent('1.0.0')).agent);
        const { agent: updated } = await installer.install(binaryAgent('1.1.0', tarWithAgent('1.1.0')).agent);
        expect(fixture.contents(path.join(fixture.root, 'tiny'))).to.deep.equal(['1.1.0', 'installed.json']);
        expect(launch((await installer.installed('tiny'))!)).to.equal('agent 1.1.0 hello acp');

        await expectFailure(installer.install(binaryAgent('1.2.0', tarWithAgent('1.2.0'), { sha256: '00'.repeat(32) }).agent), /has SHA-256 .* but the registry expects 0000/);
        expect(await installer.installed('tiny')).to.deep.equal(updated);
        expect(fixture.contents(path.join(fixture.root, 'tiny'))).to.deep.equal(['1.1.0', 'installed.json']);
        expect(launch(updated)).to.equal('agent 1.1.0 hello acp');
    });

    it('reinstalls the same version in place', async () => {
        await installer.install(binaryAgent('1.0.0', tarWithAgent('1.0.0')).agent);
        const again = fixture.archive('tar.gz', [{ name: 'agent', content: '#!/bin/sh\necho repaired\n' }]);
        const { agent: installed } = await installer.install(binaryAgent('1.0.0', again, { name: 'again.tar.gz' }).agent);
        expect(launch(installed)).to.equal('repaired');
        expect(fixture.contents(path.join(fixture.root, 'tiny'))).to.deep.equal(['1.0.0', 'installed.json']);
    });

    it('runs two installs of one agent one after the other', async () => {
        const first = installer.install(binaryAgent('1.0.0', tarWithAgent('1.0.0')).agent);
        const second = installer.install(binaryAgent('1.1.0', tarWithAgent('1.1.0')).agent);
        await Promise.all([first, second]);
        expect((await installer.installed('tiny'))!.version).to.equal('1.1.0');
        expect(fixture.contents(path.join(fixture.root, 'tiny'))).to.deep.equal(['1.1.0', 'installed.json']);
    });

    it('removes an agent with all its versions', async () => {
        await installer.install(binaryAgent('1.0.0', tarWithAgent('1.0.0')).agent);
        expect(await installer.remove('tiny')).to.equal(true);
        expect(fixture.contents(fixture.root)).to.deep.equal([]);
        expect(await installer.list()).to.deep.equal({ agents: [], problems: [] });
        expect(await installer.remove('tiny')).to.equal(false);
    });

    it('takes only registry ids as names of folders', async () => {
        await expectFailure(installer.installed('../outside'), '"../outside" is not an agent id of the ACP registry');
        await expectFailure(installer.remove('..'), '".." is not an agent id of the ACP registry');
        const entry = { ...registryAgent('tiny', '1.0.0', { npx: { package: 'x@1.0.0' } }), id: '../../etc' };
        await expectFailure(installer.install(entry), 'The registry entry "../../etc" cannot be installed: id: must be lower-case letters');
    });

    it('lists what is installed and says which records are missing or damaged', async () => {
        const { agent: installed } = await installer.install(binaryAgent('1.0.0', tarWithAgent('1.0.0')).agent);
        fs.mkdirSync(path.join(fixture.root, 'half-done'));
        fs.mkdirSync(path.join(fixture.root, 'garbled'));
        fs.writeFileSync(path.join(fixture.root, 'garbled', 'installed.json'), '{"id": ');
        fs.mkdirSync(path.join(fixture.root, 'other'));
        fs.writeFileSync(path.join(fixture.root, 'other', 'installed.json'), JSON.stringify({ ...installed, id: 'tiny' }));
        const { agents, problems } = await installer.list();
        expect(agents).to.deep.equal([installed]);
        expect(problems).to.have.length(3);
        expect(problems[0]).to.match(/^The install record of agent "garbled" \(.*garbled\/installed\.json\) is not JSON: /);
        expect(problems[1]).to.equal(`The folder of agent "half-done" (${path.join(fixture.root, 'half-done')}) has no install record; install the agent again or remove it`);
        expect(problems[2]).to.match(/^The install record of agent "other" .* is damaged: it is for agent "tiny"$/);
    });
});
