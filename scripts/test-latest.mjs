// npm run test:latest: the early warning. Installs the newest published Gemini CLI, Qwen Code, Claude
// Code and ACP adapters into a temporary folder, runs the specs that drive the real clients against
// them (test/src/clis/client-packages.ts: THEIA_CLI_COMPANION_CLIENTS), and prints a table of versions and
// of each spec's results. Not part of the test command: its result changes with the registry.
// Needs a build (npm run build, or scripts/setup.sh). Exit code 1 when a spec failed.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pinned = JSON.parse(fs.readFileSync(path.join(root, 'test', 'package.json'), 'utf8')).devDependencies;

/** The clients, the specs that drive each, and the executables those specs start. */
const CLIENTS = [
    { name: '@google/gemini-cli', specs: ['ide-mode/real-cli-binaries', 'acp-chat/acp-chat'] },
    { name: '@google/gemini-cli-core', specs: ['ide-mode/ide-mode-connection', 'ide-mode/diff-review'] },
    { name: '@qwen-code/qwen-code', specs: ['ide-mode/ide-mode-connection', 'ide-mode/real-cli-binaries', 'acp-chat/acp-chat-adapters'] },
    { name: '@anthropic-ai/claude-code', specs: ['ide-mode/claude-code', 'acp-chat/acp-chat-adapters'] },
    { name: '@agentclientprotocol/claude-agent-acp', specs: ['acp-chat/acp-chat-adapters'] },
    { name: '@agentclientprotocol/codex-acp', specs: ['acp-chat/acp-chat-adapters'] },
    { name: 'opencode-ai', specs: ['acp-chat/acp-chat-more-agents'] },
    { name: '@github/copilot', specs: ['acp-chat/acp-chat-more-agents'] }
].filter(client => pinned[client.name] && client.specs.every(spec => fs.existsSync(path.join(root, 'test', 'lib', `${spec}.slow-spec.js`))));

const npm = (args, options = {}) => (execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options }) ?? '').trim();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'theia-cli-companion-latest-'));
const results = new Map();
try {
    console.log(`Asking the registry for the newest versions of ${CLIENTS.length} clients`);
    for (const client of CLIENTS) {
        client.latest = npm(['view', client.name, 'version']);
    }
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, name: 'latest-clients', version: '0.0.0' }));
    console.log(`Installing them into ${dir}`);
    npm(['install', '--no-audit', '--no-fund', '--loglevel=error', ...CLIENTS.map(client => `${client.name}@${client.latest}`)], {
        cwd: dir, env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: 'true' }, stdio: ['ignore', 'inherit', 'inherit']
    });
    const specs = [...new Set(CLIENTS.flatMap(client => client.specs))];
    for (const spec of specs) {
        console.log(`\n== ${spec}.slow-spec against the newest clients`);
        const run = spawnSync('npx', ['mocha', '--config', 'configs/mocharc.yml', '--timeout', '180000', `test/lib/${spec}.slow-spec.js`], {
            cwd: root, env: { ...process.env, THEIA_CLI_COMPANION_CLIENTS: dir }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024
        });
        const output = `${run.stdout}${run.stderr}`;
        process.stdout.write(output.slice(-20000));
        const count = word => Number(output.match(new RegExp(`^ +(\\d+) ${word}`, 'm'))?.[1] ?? 0);
        results.set(spec, { passed: count('passing'), failed: count('failing'), status: run.status });
    }
} finally {
    fs.rmSync(dir, { recursive: true, force: true });
}

const pad = (text, width) => String(text).padEnd(width);
console.log('\nClients: pinned in test/package.json, newest published');
console.log(`${pad('client', 40)}${pad('pinned', 12)}${pad('newest', 12)}specs`);
for (const client of CLIENTS) {
    const verdict = client.specs.map(spec => results.get(spec)).every(result => result && result.failed === 0 && result.passed > 0 && result.status === 0) ? 'pass' : 'FAIL';
    console.log(`${pad(client.name, 40)}${pad(pinned[client.name], 12)}${pad(client.latest ?? '?', 12)}${verdict} (${client.specs.join(', ')})`);
}
console.log(`\n${pad('spec', 32)}${pad('passed', 8)}failed`);
for (const [spec, result] of results) {
    console.log(`${pad(spec, 32)}${pad(result.passed, 8)}${result.failed}${result.status !== 0 && result.failed === 0 ? ' (exit ' + result.status + ')' : ''}`);
}
const failed = [...results.values()].some(result => result.failed > 0 || result.status !== 0 || result.passed === 0);
process.exit(failed ? 1 : 0);
