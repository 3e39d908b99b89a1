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
import { WindowCompanion } from './window-companion';
import { createWindowCompanion } from './window-companion-module';
import { RecordingLogger } from './test/recording-logger';
import { until } from './test/mcp-test-client';

/** The stdio relay a CLI in a container spawns from the discovery file, run as a real process. */
describe('stdio bridge', function (): void {
    this.timeout(30000);
    let home: ReturnType<typeof useTemporaryHome>;
    let window: WindowCompanion;

    beforeEach(async () => {
        home = useTemporaryHome();
        window = createWindowCompanion({
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

    it('refuses a discovery file other users can read, without printing the token', () => {
        const file = window.discoveryFilePaths.get('gemini')!;
        fs.chmodSync(file, 0o644);
        const result = spawnSync(process.execPath, [resolveBridgeScript()!, '--discovery', file], { encoding: 'utf8', input: '' });
        expect(result.status).to.equal(1);
        expect(result.stderr).to.match(/readable by other users/);
        expect(result.stderr + result.stdout).to.not.contain(window.endpointFor('gemini').authToken);
        const missing = spawnSync(process.execPath, [resolveBridgeScript()!, '--discovery', path.join(home.dir, 'nope.json')], { encoding: 'utf8', input: '' });
        expect(missing.status).to.equal(1);
        expect(missing.stderr).to.match(/cannot start: ENOENT/);
    });
});
