import { expect } from 'chai';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { AddressInfo } from 'net';
import { until } from '../support/processes';
import { Testbed } from '../support/testbed';
import { geminiDiscoveryDirectory } from '../support/sandbox';

interface AttackResult { readonly name: string; readonly outcome: string }

/** The attacker's page: every way a web page can send a request to another local port. */
function attackerPage(port: number, token: string): string {
    const target = `http://127.0.0.1:${port}/mcp`;
    const initialize = JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } }
    });
    const openDiff = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'openDiff', arguments: { filePath: '/etc/passwd', newContent: 'pwned' } } });
    return `<!doctype html><html><body>
<form id="form" method="POST" action="${target}" enctype="text/plain" target="sink"><input name='${initialize.slice(0, -1)}, "x": "' value='"}'></form>
<iframe name="sink"></iframe>
<script>
const results = [];
async function attempt(name, run) {
    try { results.push({ name, outcome: await run() }); } catch (error) { results.push({ name, outcome: 'blocked: ' + error.name }); }
}
(async () => {
    await attempt('fetch json', async () => (await fetch('${target}', `
        + `{ method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: ${JSON.stringify(initialize)} })).status);
    await attempt('fetch json with the real token', async () => (await fetch('${target}', { method: 'POST', headers: { `
        + `'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: 'Bearer ${token}' }, body: ${JSON.stringify(initialize)} })).status);
    await attempt('fetch simple request (text/plain) with a tool call', async () => (await fetch('${target}', `
        + `{ method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: ${JSON.stringify(openDiff)} })).status);
    await attempt('fetch no-cors', async () => (await fetch('${target}', `
        + `{ method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: ${JSON.stringify(initialize)} })).type);
    await attempt('sendBeacon', async () => navigator.sendBeacon('${target}', new Blob([${JSON.stringify(initialize)}], { type: 'text/plain' })));
    await attempt('image GET', () => new Promise(resolve => { `
        + `const img = new Image(); img.onload = () => resolve('loaded'); img.onerror = () => resolve('error'); img.src = '${target}'; }));
    await attempt('form POST', () => new Promise(resolve => { document.querySelector('iframe').onload = () => resolve('submitted'); document.getElementById('form').submit(); }));
    await attempt('EventSource', () => new Promise(resolve => { `
        + `const source = new EventSource('${target}'); source.onerror = () => { source.close(); resolve('error'); }; source.onopen = () => resolve('open'); }));
    window.attackDone = results;
})();
</script></body></html>`;
}

/**
 * What other local parties can do to a window's server: a web page in the user's browser, a
 * DNS-rebinding request, another user account on the machine. None of them gets in or learns the
 * token, and nothing they send reaches a tool.
 */
describe('Attackers: web pages, DNS rebinding and other local users are kept out', function (): void {
    this.timeout(240000);
    const bed = Testbed.install('project', { 'src/app.ts': 'export const secret = 42;\n' });

    async function windowServer(): Promise<{ port: number; geminiFile: string; qwenFile: string; token: string }> {
        const window = await bed.openWindow();
        await window.openTerminal();
        const env = await window.terminalEnvironment(bed.workspace);
        const port = Number(env.GEMINI_CLI_IDE_SERVER_PORT);
        const geminiFile = path.join(geminiDiscoveryDirectory(bed.sandbox), `gemini-ide-server-${bed.backend.pid}-${port}.json`);
        const qwenFile = path.join(bed.sandbox.home, '.qwen', 'ide', `${port}.lock`);
        return { port, geminiFile, qwenFile, token: JSON.parse(fs.readFileSync(geminiFile, 'utf8')).authToken };
    }

    it('a page on another localhost port cannot reach the server by fetch, beacon, image, form, or EventSource, even with the token', async () => {
        const { port, token } = await windowServer();
        const window = await bed.openWindow();
        const attacker = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(attackerPage(port, token)));
        await new Promise<void>(resolve => attacker.listen(0, '127.0.0.1', resolve));
        const logBefore = bed.backend.log.length;
        try {
            const page = await window.page.context().newPage();
            await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
            const results = await until(() => page.evaluate(() => (window as unknown as { attackDone?: AttackResult[] }).attackDone), 'the attacks to finish', 30000, 100);
            const readable = results.filter(result => typeof result.outcome === 'number' && result.outcome < 400);
            expect(readable, JSON.stringify(results)).to.deep.equal([]);
            await page.close();
        } finally {
            attacker.close();
        }
        const refusals = () => bed.backend.log.slice(logBefore).split('\n').filter(line => /Refused a request \((401|403)\)/.test(line));
        // Only the first refusal of each kind is logged in full (the rest are counted into a summary a
        // minute later, so a page cannot flood the log): one for Origin, one for the image's tokenless GET.
        await until(() => refusals().some(line => line.includes('(403)') && line.includes('Origin')) && refusals().some(line => line.includes('(401)')),
            'the attempts to be refused', 20000).catch(error => {
            throw new Error(`${error.message}:\n${refusals().join('\n')}`);
        });
        const log = bed.backend.log.slice(logBefore);
        // Nothing reached a session or a tool.
        expect(log).to.not.match(/CLI session .* connected|Diff .* opened|Refused to show a diff/);
        expect(log).to.not.contain(token);
    });

    it('a DNS-rebinding request (a foreign Host header) is refused even with the right token', async () => {
        const { port, token } = await windowServer();
        for (const host of ['attacker.example', `attacker.example:${port}`, `127.0.0.1.nip.io:${port}`]) {
            const status = await new Promise<number>((resolve, reject) => {
                const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: {
                    Host: host, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream'
                } }, res => { res.resume(); resolve(res.statusCode!); });
                req.on('error', reject);
                req.end(JSON.stringify({
                    jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rebind', version: '1' } }
                }));
            });
            expect(status, host).to.equal(403);
        }
    });

    it('another user account cannot read the discovery files or the token, even where an admin loosened the directory', async function (): Promise<void> {
        if (process.getuid?.() !== 0 || spawnSync('which', ['useradd']).status !== 0 || spawnSync('which', ['runuser']).status !== 0) {
            this.skip();
        }
        const { geminiFile, qwenFile, token } = await windowServer();
        const user = `cccatk${process.pid % 100000}`;
        execFileSync('useradd', ['--no-create-home', '--shell', '/bin/sh', user]);
        // Let the other user walk down to the discovery directories: only our own modes stand in the way.
        const loosened = new Map<string, number>();
        for (const file of [geminiFile, qwenFile]) {
            for (let dir = path.dirname(path.dirname(file)); dir.startsWith(bed.sandbox.root); dir = path.dirname(dir)) {
                if (!loosened.has(dir)) {
                    loosened.set(dir, fs.statSync(dir).mode & 0o7777);
                    fs.chmodSync(dir, 0o755);
                }
            }
        }
        try {
            const asOther = (...command: string[]) => spawnSync('runuser', ['-u', user, '--', ...command], { encoding: 'utf8' });
            for (const file of [geminiFile, qwenFile]) {
                expect(fs.statSync(path.dirname(file)).mode & 0o777, path.dirname(file)).to.equal(0o700);
                expect(fs.statSync(file).mode & 0o777, file).to.equal(0o600);
                const list = asOther('ls', path.dirname(file));
                expect(list.status, `ls ${path.dirname(file)}: ${list.stdout}${list.stderr}`).to.not.equal(0);
                expect(list.stderr).to.match(/Permission denied/);
                const read = asOther('cat', file);
                expect(read.status).to.not.equal(0);
                expect(read.stdout).to.not.contain(token);
                // Even if an admin opened the directory, the file itself stays closed.
                fs.chmodSync(path.dirname(file), 0o755);
                try {
                    const again = asOther('cat', file);
                    expect(again.status, again.stderr).to.not.equal(0);
                    expect(again.stderr).to.match(/Permission denied/);
                    expect(again.stdout).to.not.contain(token);
                } finally {
                    fs.chmodSync(path.dirname(file), 0o700);
                }
            }
        } finally {
            spawnSync('userdel', [user]);
            loosened.forEach((mode, dir) => fs.chmodSync(dir, mode));
        }
    });
});
