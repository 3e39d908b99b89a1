import { expect } from 'chai';
import { IDE_CONTEXT_TOOL_NAMES } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { resolveBridgeScript, stdioBridgeCommand } from './stdio-bridge-command';
import { WindowServer } from '../window-server';
import { createWindowServer } from '../window-server-module';
import { RecordingLogger } from '../test/recording-logger';
import { until } from '../test/mcp-test-client';

/** The stdio relay a CLI in a container spawns from the discovery file, run as a real process. */
describe('stdio bridge', function (): void {
    this.timeout(30000);
    let home: ReturnType<typeof useTemporaryHome>;
    let window: WindowServer;

    beforeEach(async () => {
        home = useTemporaryHome();
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-000000000002', flavours: [GeminiCliFlavour], logger: new RecordingLogger(),
            serverPid: process.pid, stdioFor: stdioBridgeCommand
        });
        await window.start([home.dir]);
    });

    afterEach(async () => {
        await window.stop();
        home.restore();
    });

    it('relays MCP both ways between a stdio client and the window server, and ends when the server goes', async () => {
        const file = window.discoveryFilePaths.get('gemini')!;
        const { stdio } = JSON.parse(fs.readFileSync(file, 'utf8'));
        expect(stdio.args).to.deep.equal([resolveBridgeScript(), '--discovery', file]);
        expect(stdio.args.join(' ')).to.not.contain(window.endpointFor('gemini').authToken);

        const client = new Client({ name: 'stdio-spec', version: '1' });
        const updates: unknown[] = [];
        client.fallbackNotificationHandler = async notification => { updates.push(notification.params); };
        const transport = new StdioClientTransport({ command: stdio.command, args: stdio.args, stderr: 'pipe' });
        let closed = false;
        client.onclose = () => closed = true;
        await client.connect(transport);
        const tools = await client.listTools();
        expect(tools.tools.map(tool => tool.name).sort()).to.deep.equal(['closeDiff', 'openDiff', ...IDE_CONTEXT_TOOL_NAMES].sort());
        await until(() => window.server.connectedSessions.length === 1, 'the relayed session');
        expect(window.server.connectedSessions[0].clientName).to.equal('stdio-spec');

        await window.setEditorState({ isTrusted: true, openFiles: [] });
        // The state arrives with the push, or when the relayed event stream opens after it (or both).
        await until(() => updates.length >= 1, 'the notification through the relay');
        updates.forEach(update => expect(update).to.deep.equal({ workspaceState: { isTrusted: true, openFiles: [] } }));

        await window.stop();
        await until(() => closed, 'the relay to end when the server stopped', 15000);
    });

    it('answers a proposal whose answer could not reach the CLI over stdio with a tool error, and stays connected', async () => {
        const file = window.discoveryFilePaths.get('gemini')!;
        const { stdio } = JSON.parse(fs.readFileSync(file, 'utf8'));
        const client = new Client({ name: 'stdio-large', version: '1' });
        const transport = new StdioClientTransport({ command: stdio.command, args: stdio.args, stderr: 'pipe' });
        let closed = false;
        client.onclose = () => closed = true;
        await client.connect(transport);
        try {
            // 10.5 MiB: the SDK's stdio transport (the relay's before) ended the connection at 10 MiB without a word.
            const newContent = 'x'.repeat(63).concat('\n').repeat(172_000);
            const result = await client.callTool({ name: 'openDiff', arguments: { filePath: path.join(home.dir, 'big.txt'), newContent } });
            expect(result.isError).to.equal(true);
            expect((result.content as Array<{ text: string }>)[0].text).to.match(/too large to review in the IDE over the stdio relay: the answer would be 10\.\d MiB.*at most 10 MiB/);
            expect(closed).to.equal(false);
            expect((await client.listTools()).tools.length).to.be.greaterThan(0);
        } finally {
            await client.close();
        }
    });

    /** Runs the relay as a CLI does, on `file`; answers its exit code and everything it printed. */
    const runRelay = (file: string) => {
        const result = spawnSync(process.execPath, [resolveBridgeScript()!, '--discovery', file], { encoding: 'utf8', input: '', timeout: 15000 });
        return { status: result.status, stderr: result.stderr, printed: result.stdout + result.stderr };
    };
    /** A copy of the window's discovery file (its real token inside), 0600 in a 0700 directory, for one case. */
    const copyOfDiscoveryFile = (name: string) => {
        const dir = path.join(home.dir, 'relay-cases');
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const file = path.join(dir, name);
        fs.copyFileSync(window.discoveryFilePaths.get('gemini')!, file);
        fs.chmodSync(file, 0o600);
        return file;
    };

    it('relays from a private copy of the discovery file: the cases below differ only in what they say', async () => {
        const file = copyOfDiscoveryFile('private.json');
        const client = new Client({ name: 'stdio-copy', version: '1' });
        await client.connect(new StdioClientTransport({ command: process.execPath, args: [resolveBridgeScript()!, '--discovery', file], stderr: 'pipe' }));
        expect((await client.listTools()).tools.length).to.be.greaterThan(0);
        await client.close();
    });

    it('refuses a discovery file other users can read, without printing the token', () => {
        const token = window.endpointFor('gemini').authToken;
        const file = window.discoveryFilePaths.get('gemini')!;
        fs.chmodSync(file, 0o644);
        const result = runRelay(file);
        expect(result.status).to.equal(1);
        expect(result.stderr).to.match(/readable by other users/);
        expect(result.printed).to.not.contain(token);
        for (const mode of [0o640, 0o604]) {
            const copy = copyOfDiscoveryFile(`mode-${mode.toString(8)}.json`);
            fs.chmodSync(copy, mode);
            const refused = runRelay(copy);
            expect(refused.status, mode.toString(8)).to.equal(1);
            expect(refused.stderr, mode.toString(8)).to.contain(`[theia-companion-bridge] cannot start: ${copy} is readable by other users (mode ${mode.toString(8)})`);
            expect(refused.printed, mode.toString(8)).to.not.contain(token);
        }
        const missing = runRelay(path.join(home.dir, 'nope.json'));
        expect(missing.status).to.equal(1);
        expect(missing.stderr).to.match(/cannot start: ENOENT/);
    });

    it('refuses a discovery file of another user, even one nobody else can read, without printing the token', function (): void {
        if (process.getuid?.() !== 0) {
            // Only root can give a file to another uid. CI runs as root, where this never skips.
            this.skip();
        }
        const token = window.endpointFor('gemini').authToken;
        const file = copyOfDiscoveryFile('foreign.json');
        fs.chownSync(file, 65534, 65534);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        const result = runRelay(file);
        expect(result.status).to.equal(1);
        expect(result.stderr).to.contain(`cannot start: ${file} is not owned by this user`);
        expect(result.printed).to.not.contain(token);
    });

    it('refuses a symbolic link to a discovery file, and anything but a regular file, without printing the token', () => {
        const token = window.endpointFor('gemini').authToken;
        const target = copyOfDiscoveryFile('target.json');
        const link = path.join(path.dirname(target), 'link.json');
        fs.symlinkSync(target, link);
        const result = runRelay(link);
        expect(result.status).to.equal(1);
        expect(result.stderr).to.contain(`cannot start: ${link} is a symbolic link, not a discovery file`);
        expect(result.printed).to.not.contain(token);

        const fifo = path.join(path.dirname(target), 'fifo.json');
        expect(spawnSync('mkfifo', ['-m', '600', fifo]).status).to.equal(0);
        const pipe = runRelay(fifo);
        expect(pipe.status, 'a named pipe is refused at once, not waited on').to.equal(1);
        expect(pipe.stderr).to.contain(`cannot start: ${fifo} is not a regular file`);
    });
});
