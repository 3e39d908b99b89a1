import { expect } from 'chai';
import { parseAcpRegistry } from './parse-acp-registry';
import { PUBLISHED_REGISTRY_JSON } from './test/published-registry';

// Entries shaped as agentclientprotocol/registry publishes them (commit 3de1678, February 2026):
// gemini/agent.json, codex-acp/agent.json, auggie/agent.json (icon rewritten to the CDN by the build),
// kimi/agent.json (not every platform), goose (a .tar.bz2), and a uvx entry from the repository's history.
const GEMINI = {
    id: 'gemini', name: 'Gemini CLI', version: '0.27.3', description: 'Google\'s official CLI for Gemini',
    repository: 'https://github.com/google-gemini/gemini-cli', authors: ['Google'], license: 'Apache-2.0',
    distribution: { npx: { package: '@google/gemini-cli@0.27.3', args: ['--experimental-acp'] } }
};
const codexTarget = (triple: string, ext = 'tar.gz') => ({
    archive: `https://github.com/zed-industries/codex-acp/releases/download/v0.9.2/codex-acp-0.9.2-${triple}.${ext}`, cmd: ext === 'zip' ? './codex-acp.exe' : './codex-acp'
});
const CODEX = {
    id: 'codex-acp', name: 'Codex CLI', version: '0.9.2', description: 'ACP adapter for OpenAI\'s coding assistant',
    repository: 'https://github.com/zed-industries/codex-acp', authors: ['OpenAI', 'Zed Industries'], license: 'Apache-2.0',
    distribution: {
        binary: {
            'darwin-aarch64': codexTarget('aarch64-apple-darwin'), 'darwin-x86_64': codexTarget('x86_64-apple-darwin'),
            'linux-aarch64': codexTarget('aarch64-unknown-linux-gnu'), 'linux-x86_64': codexTarget('x86_64-unknown-linux-gnu'),
            'windows-aarch64': codexTarget('aarch64-pc-windows-msvc', 'zip'), 'windows-x86_64': codexTarget('x86_64-pc-windows-msvc', 'zip')
        }
    }
};
const AUGGIE = {
    id: 'auggie', name: 'Auggie CLI', version: '0.15.0', description: 'Augment Code\'s powerful software agent, backed by industry-leading context engine',
    repository: 'https://github.com/augmentcode/auggie-zed-extension', authors: ['Augment Code <support@augmentcode.com>'], license: 'proprietary',
    icon: 'https://cdn.agentclientprotocol.com/registry/v1/latest/auggie.svg',
    distribution: { npx: { package: '@augmentcode/auggie@0.15.0', args: ['--acp'], env: { AUGMENT_DISABLE_AUTO_UPDATE: '1' } } }
};
const KIMI = {
    id: 'kimi', name: 'Kimi CLI', version: '1.9.0', description: 'Moonshot AI\'s coding assistant', license: 'MIT',
    distribution: {
        binary: {
            'linux-x86_64': { archive: 'https://github.com/MoonshotAI/kimi-cli/releases/download/1.9/kimi-1.9-x86_64-unknown-linux-gnu.tar.gz', cmd: './kimi', args: ['acp'] },
            'windows-x86_64': { archive: 'https://github.com/MoonshotAI/kimi-cli/releases/download/1.9/kimi-1.9-x86_64-pc-windows-msvc.zip', cmd: './kimi.exe', args: ['acp'] }
        }
    }
};
const GOOSE = {
    id: 'goose', name: 'Goose', version: '1.23.2', description: 'Block\'s open-source AI developer agent',
    distribution: { binary: { 'linux-x86_64': { archive: 'https://github.com/block/goose/releases/download/v1.23.2/goose-x86_64-unknown-linux-gnu.tar.bz2', cmd: './goose', args: ['acp'] } } }
};
const MINION = { id: 'minion-code', name: 'Minion Code', version: '0.1.5', description: 'A uvx agent', distribution: { uvx: { package: 'minion-code@0.1.5', args: ['acp'] } } };

const registry = (...agents: unknown[]) => ({ version: '1.0.0', agents, extensions: [] });

describe('parseAcpRegistry', () => {
    it('reads the published registry whole, without a problem', () => {
        const { version, agents, problems } = parseAcpRegistry(JSON.parse(PUBLISHED_REGISTRY_JSON));
        expect(problems).to.deep.equal([]);
        expect(version).to.equal('1.0.0');
        expect(agents.map(agent => agent.id)).to.deep.equal([
            'auggie', 'claude-code-acp', 'codex-acp', 'factory-droid', 'gemini', 'github-copilot', 'kimi', 'mistral-vibe', 'opencode', 'qoder', 'qwen-code'
        ]);
        expect(agents.every(agent => agent.icon === `https://cdn.agentclientprotocol.com/registry/v1/latest/${agent.id}.svg`)).to.equal(true);
        expect(agents.find(agent => agent.id === 'factory-droid')!.distribution.binary!['linux-x86_64']).to.deep.equal({
            archive: 'https://downloads.factory.ai/factory-cli/releases/0.56.3/droid-linux-x86_64.tar.gz', cmd: './droid', args: ['exec', '--output-format', 'acp'],
            env: { DROID_DISABLE_AUTO_UPDATE: 'true', FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false' }
        });
    });

    it('reads the real registry\'s entries, filling what they leave out', () => {
        const { version, agents, problems } = parseAcpRegistry(registry(GEMINI, CODEX, AUGGIE, KIMI, GOOSE, MINION));
        expect(problems).to.deep.equal([]);
        expect(version).to.equal('1.0.0');
        expect(agents.map(agent => agent.id)).to.deep.equal(['gemini', 'codex-acp', 'auggie', 'kimi', 'goose', 'minion-code']);
        expect(agents[0].distribution.npx).to.deep.equal({ package: '@google/gemini-cli@0.27.3', args: ['--experimental-acp'], env: {} });
        expect(Object.keys(agents[1].distribution.binary!)).to.have.length(6);
        expect(agents[1].distribution.binary!['linux-x86_64']).to.deep.equal({ ...codexTarget('x86_64-unknown-linux-gnu'), args: [], env: {} });
        expect(agents[2]).to.deep.include({ icon: 'https://cdn.agentclientprotocol.com/registry/v1/latest/auggie.svg' });
        expect(agents[2].distribution.npx!.env).to.deep.equal({ AUGMENT_DISABLE_AUTO_UPDATE: '1' });
        expect(agents[3].distribution.binary!['darwin-aarch64']).to.equal(undefined);
        expect(agents[5].distribution.uvx).to.deep.equal({ package: 'minion-code@0.1.5', args: ['acp'], env: {} });
        expect(agents[4]).to.deep.include({ authors: [], description: 'Block\'s open-source AI developer agent' });
    });

    it('ignores fields and platforms it does not know, and a registry without `extensions`', () => {
        const future = {
            ...GEMINI, website: 'https://geminicli.com', _meta: { anything: true },
            distribution: { ...GEMINI.distribution, docker: { image: 'x' }, binary: { 'freebsd-x86_64': { archive: 'ftp://x', cmd: '/x' } } }
        };
        const { agents, problems } = parseAcpRegistry({ version: '1.2.0', agents: [future], somethingNew: 1 });
        expect(problems).to.deep.equal([]);
        expect(agents[0]).to.not.have.property('_meta');
        expect(agents[0].website).to.equal('https://geminicli.com');
        expect(agents[0].distribution).to.deep.equal({ binary: {}, npx: { package: '@google/gemini-cli@0.27.3', args: ['--experimental-acp'], env: {} }, uvx: undefined });
    });

    it('throws one clear sentence when the file is not a registry at all', () => {
        expect(() => parseAcpRegistry('<html>')).to.throw('This is not an ACP registry index: the file: Expected object, received string');
        expect(() => parseAcpRegistry({ version: '1.0.0', agents: {} })).to.throw(/not an ACP registry index: agents: Expected array, received object/);
        expect(() => parseAcpRegistry({ agents: [] })).to.throw(/version: Required/);
        expect(() => parseAcpRegistry(null)).to.throw(/not an ACP registry index/);
    });

    it('keeps the good agents and names each bad one with what is wrong', () => {
        const { agents, problems } = parseAcpRegistry(registry(
            GEMINI,
            { ...GEMINI, id: '../etc' },
            { ...CODEX, id: 'http-archive', distribution: { binary: { 'linux-x86_64': { archive: 'http://example.com/a.tar.gz', cmd: './a' } } } },
            { ...CODEX, id: 'escaping-cmd', distribution: { binary: { 'linux-x86_64': { archive: 'https://example.com/a.tar.gz', cmd: '../../bin/sh' } } } },
            { ...CODEX, id: 'short-hash', distribution: { binary: { 'linux-x86_64': { archive: 'https://example.com/a.tar.gz', cmd: './a', sha256: 'abc' } } } },
            { ...GEMINI, id: 'git-package', distribution: { npx: { package: 'git+https://example.com/evil.git' } } },
            { ...GEMINI, id: 'option-package', distribution: { npx: { package: '--registry=https://evil' } } },
            { ...GEMINI, id: 'bad-env', distribution: { npx: { package: 'x@1.0.0', env: { 'A=B': 'c' } } } },
            { ...GEMINI, id: 'no-version', version: 'latest' },
            { ...MINION, id: 'uvx-option', distribution: { uvx: { package: '--with=evil' } } },
            'not an object',
            { name: 'no id' }
        ));
        expect(agents.map(agent => agent.id)).to.deep.equal(['gemini']);
        expect(problems).to.deep.equal([
            'Agent "../etc" is left out: id: must be lower-case letters, digits and "-", starting with a letter (at most 64)',
            'Agent "http-archive" is left out: distribution.binary.linux-x86_64.archive: must be an https URL (http only to 127.0.0.1, localhost or [::1])',
            'Agent "escaping-cmd" is left out: distribution.binary.linux-x86_64.cmd: must be a path inside the archive, such as "./agent" (not absolute, no "..")',
            'Agent "short-hash" is left out: distribution.binary.linux-x86_64.sha256: must be 64 hexadecimal digits',
            'Agent "git-package" is left out: distribution.npx.package: must be an npm package name with an optional @version',
            'Agent "option-package" is left out: distribution.npx.package: must be an npm package name with an optional @version',
            'Agent "bad-env" is left out: distribution.npx.env.A=B: must be an environment variable name',
            'Agent "no-version" is left out: version: must be a semantic version such as 1.2.3',
            'Agent "uvx-option" is left out: distribution.uvx.package: must be a PyPI package name with an optional version (==1.2.3 or @1.2.3)',
            'Agent #11 is left out: it is not an object',
            'Agent #12 is left out: id: Required; version: Required; distribution: Required'
        ]);
    });

    it('skips an agent offered only in ways it does not know, saying which', () => {
        const { agents, problems } = parseAcpRegistry(registry(
            { ...GEMINI, id: 'dockerised', distribution: { docker: { image: 'x' } } },
            { ...GEMINI, id: 'empty', distribution: {} }
        ));
        expect(agents).to.deep.equal([]);
        expect(problems).to.deep.equal([
            'Agent "dockerised" is left out: distribution: offers no way of installing that this client knows (binary, npx, uvx); it has docker',
            'Agent "empty" is left out: distribution: offers no way of installing that this client knows (binary, npx, uvx)'
        ]);
    });

    it('keeps an agent whose icon is unusable, without the icon, and resolves a relative icon against the index', () => {
        const { agents, problems } = parseAcpRegistry(registry(
            { ...GEMINI, icon: 'javascript:alert(1)' },
            { ...AUGGIE, icon: './icon.svg' },
            { ...KIMI, icon: 'data:image/svg+xml;base64,PHN2Zy8+' }
        ), { baseUrl: 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json' });
        expect(agents.map(agent => agent.icon)).to.deep.equal([undefined, 'https://cdn.agentclientprotocol.com/registry/v1/latest/icon.svg', 'data:image/svg+xml;base64,PHN2Zy8+']);
        expect(problems).to.deep.equal(['Agent "gemini": its icon is not shown: icon: must be an https or data:image URL']);
    });

    it('allows plain http to the loopback address only, lower-cases a pinned hash, and keeps the first of two entries with one id', () => {
        const target = (archive: string) => ({ archive, cmd: 'bin/agent', sha256: 'AB'.repeat(32) });
        const { agents, problems } = parseAcpRegistry(registry(
            { ...CODEX, distribution: { binary: { 'linux-x86_64': target('http://127.0.0.1:8080/a.tar.gz'), 'linux-aarch64': target('http://[::1]:8080/a.tgz') } } },
            { ...CODEX, name: 'Second' },
            { ...CODEX, id: 'lan', distribution: { binary: { 'linux-x86_64': target('http://192.168.1.2/a.tar.gz') } } }
        ));
        expect(agents.map(agent => agent.name)).to.deep.equal(['Codex CLI']);
        expect(agents[0].distribution.binary!['linux-x86_64']!.sha256).to.equal('ab'.repeat(32));
        expect(problems).to.deep.equal([
            'Agent "codex-acp" is listed twice; the first entry is used',
            'Agent "lan" is left out: distribution.binary.linux-x86_64.archive: must be an https URL (http only to 127.0.0.1, localhost or [::1])'
        ]);
    });

    it('reads a newer format version and says so', () => {
        const { agents, problems } = parseAcpRegistry({ version: '2.0.0', agents: [GEMINI] });
        expect(agents).to.have.length(1);
        expect(problems).to.deep.equal(['The registry\'s format is version 2.0.0, newer than this client knows (1.x); entries that do not fit are left out']);
    });
});
