import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { podman, podmanRunDefaults } from '../hosts/podman-container';
import { REPO_ROOT } from '../hosts/theia-backend';
import { buildImage } from './container-image';

const FEATURE = path.join(REPO_ROOT, 'deploy', 'devcontainer-feature', 'src', 'theia-cli-companion');
const PINNED = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test', 'package.json'), 'utf8')).devDependencies as Record<string, string>;
/** This machine's CA bundle: its egress to the npm registry may go through a proxy that only this bundle trusts. */
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/**
 * `podman run` of the image's Debian base as root, as a dev container build runs a feature's
 * install.sh: with Node (this machine's, mounted; the node feature's part) and the feature's folder.
 * npm reaches the registry this machine reaches, preferring this machine's npm cache, seen through an
 * overlay that throws away what the container writes.
 */
async function runInBase(base: string, env: Record<string, string>, script: string): Promise<{ output: string; code: number }> {
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    const volumes = {
        [fs.realpathSync(process.execPath)]: '/usr/local/bin/node:ro',
        [path.join(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(), 'npm')]: '/opt/npm:ro',
        [FEATURE]: '/feature:ro',
        ...fs.existsSync(npmCache) ? { [npmCache]: '/root/.npm:O' } : {},
        ...fs.existsSync(CA_BUNDLE) ? { [CA_BUNDLE]: `${CA_BUNDLE}:ro` } : {}
    };
    const args = ['run', '--rm', ...podmanRunDefaults(), '--user', '0:0',
        ...Object.entries(volumes).flatMap(([host, inside]) => ['--volume', `${host}:${inside}`]),
        ...Object.entries({ NODE_EXTRA_CA_CERTS: CA_BUNDLE, NPM_CONFIG_PREFER_OFFLINE: 'true', ...env }).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
        base, 'bash', '-c', `ln -s /opt/npm/bin/npm-cli.js /usr/local/bin/npm && ${script}`];
    return podman(args, 600_000)
        .then(output => ({ output, code: 0 }))
        .catch((error: { stdout?: string; stderr?: string; code?: number }) => ({ output: `${error.stdout ?? ''}${error.stderr ?? ''}`, code: error.code ?? -1 }));
}

/**
 * The dev container feature's install.sh, run as a dev container build runs it: as root in a
 * Debian container that has Node, with the options as upper-cased variables.
 */
describe('The dev container feature\'s install.sh, in a container of the image\'s Debian base', function (): void {
    this.timeout(900_000);
    let base: string;

    before(async () => {
        base = (await buildImage()).base;
    });

    it('installs every CLI at its pinned version by default, and each answers --version on PATH', async () => {
        const { output, code } = await runInBase(base, { CLIS: 'all' }, 'bash /feature/install.sh'
            + ' && for cli in gemini qwen claude opencode copilot; do echo "answer $cli: $($cli --version 2>&1 | head -1)"; done');
        expect(code, output.slice(-4000)).to.equal(0);
        for (const [cli, pkg] of Object.entries({ gemini: '@google/gemini-cli', qwen: '@qwen-code/qwen-code', claude: '@anthropic-ai/claude-code',
            'claude-agent-acp': '@agentclientprotocol/claude-agent-acp', 'codex-acp': '@agentclientprotocol/codex-acp', opencode: 'opencode-ai', copilot: '@github/copilot' })) {
            expect(output, cli).to.include(`theia-cli-companion feature: ${cli} ${PINNED[pkg]} ok`);
        }
        expect(output).to.match(new RegExp(`^answer claude: ${PINNED['@anthropic-ai/claude-code'].replace(/\./g, '\\.')} \\(Claude Code\\)$`, 'm'));
    });

    it('refuses an unknown CLI before installing anything, and says which names it knows', async () => {
        const { output, code } = await runInBase(base, { CLIS: 'gemini,cursor' }, 'bash /feature/install.sh; status=$?; command -v gemini || echo "no gemini"; exit $status');
        expect(code).to.equal(1);
        expect(output).to.include('unknown CLI \'cursor\' in clis=\'gemini,cursor\'');
        expect(output).to.include('the known ones are gemini qwen claude claude-agent-acp codex-acp opencode copilot');
        expect(output).to.include('no gemini');
    });

    it('without Node, says to add the node feature', async () => {
        const { output, code } = await runInBase(base, { CLIS: 'gemini' }, 'PATH=/usr/bin:/bin bash /feature/install.sh');
        expect(code).to.equal(1);
        expect(output).to.include('node and npm are needed (Node 20 or newer): add the feature ghcr.io/devcontainers/features/node');
    });
});
