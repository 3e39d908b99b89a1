import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { FileUri } from './file-uri';
import { CliFlavour, DiscoveryEndpoint, GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import type { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { IdeTransport } from '@theia-cli-companion/cli-process/lib/common';
import { WindowServer, createWindowServer } from './window';
import { RecordingLogger, RecordingWindow, connectTestClient, until } from './test';
import { claudeWindowModule } from './claude-code/claude-window-module';
import { ClaudeWire } from './test/claude-wire';

/**
 * A CLI the companion has never heard of, described the way a real one is: a flavour (where its
 * discovery file goes, what it holds, which terminal variables point the CLI at the window) over one
 * of the transports the window already serves. A real CLI would add its catalogue entry too, which
 * puts its id into `CliFlavourId`; this test's ids are not in the catalogue, hence the casts.
 */
function testFlavour(id: string, transport: IdeTransport): CliFlavour {
    const variable = `${id.toUpperCase()}_IDE_PORT`;
    return Object.freeze({
        id: id as CliFlavourId,
        displayName: `${id} CLI`,
        transport,
        discoveryDirectory: () => path.join(process.env.HOME!, `.${id}`, 'ide'),
        discoveryFileName: (endpoint: DiscoveryEndpoint) => `${endpoint.port}.json`,
        discoveryFileContent: (endpoint: DiscoveryEndpoint) => ({ port: endpoint.port, secret: endpoint.authToken, folders: endpoint.workspaceRoots }),
        terminalEnvironment: (endpoint: DiscoveryEndpoint) => ({ [variable]: String(endpoint.port) }),
        ownedFile: () => undefined
    });
}

describe('A new CLI flavour needs nothing but its flavour', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    let workspace: string;
    let window: WindowServer;
    let frontend: RecordingWindow;
    const fourth = testFlavour('fourth', 'mcp-streamable-http');
    const fifth = testFlavour('fifth', 'claude-code-websocket');
    const discovery = (flavour: CliFlavour) => JSON.parse(fs.readFileSync(window.discoveryFilePaths.get(flavour.id)!, 'utf8'));

    beforeEach(async () => {
        home = useTemporaryHome();
        workspace = path.join(home.dir, 'project');
        fs.mkdirSync(workspace);
        fs.writeFileSync(path.join(workspace, 'a.ts'), 'const a = 1;\n');
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-0000000f0a17', flavours: [GeminiCliFlavour, fourth, fifth], logger: new RecordingLogger(),
            serverPid: process.pid, streamGraceMs: 200
        }, undefined, [claudeWindowModule]);
        frontend = new RecordingWindow();
        window.attachFrontend(frontend);
        await window.start([workspace]);
    });

    afterEach(async () => {
        await window.stop();
        home.restore();
    });

    it('over Streamable HTTP: its discovery file and variables, its own secret, the IDE context and the diff tools', async () => {
        const file = discovery(fourth);
        expect(file).to.deep.equal({ port: window.server.port, secret: window.endpointFor(fourth.id).authToken, folders: [fs.realpathSync(workspace)] });
        expect(file.secret).to.not.equal(window.endpointFor('gemini').authToken);
        expect(window.terminalEnvironment()).to.include({ FOURTH_IDE_PORT: String(window.server.port), FIFTH_IDE_PORT: String(window.endpointOf(fifth.id).port) });

        const client = await connectTestClient(file.port, file.secret, 'fourth-cli', '0.1.0');
        await until(() => window.status.sessions.length === 1, 'the session listed');
        expect(window.status.sessions[0]).to.include({ flavour: 'fourth', clientLabel: 'fourth CLI', clientName: 'fourth-cli' });
        expect((await client.client.listTools()).tools.map(tool => tool.name)).to.include.members(['openDiff', 'closeDiff']);

        const target = path.join(fs.realpathSync(workspace), 'a.ts');
        await window.setEditorState({ isTrusted: true, openFiles: [{ uri: FileUri.create(target).toString(), timestamp: 1, isActive: true, cursor: { line: 1, character: 1 } }] });
        await until(() => client.updates.length === 1, 'the context update');
        await client.client.callTool({ name: 'openDiff', arguments: { filePath: target, newContent: 'const a = 2;\n' } });
        expect(frontend.opened.map(diff => diff.proposedBy)).to.deep.equal(['fourth CLI (fourth-cli 0.1.0)']);
        await window.diffs.resolve(frontend.opened[0].id, { accepted: false });
        await until(() => client.notifications.some(notification => notification.method === 'ide/diffRejected'), 'the rejection');

        await window.setFlavours(['gemini', fifth.id]);
        await until(() => window.status.sessions.length === 0, 'its session to end once it is turned off');
        expect(window.discoveryFilePaths.has(fourth.id)).to.equal(false);
        await client.client.close();
    });

    it('over the Claude Code WebSocket: its lock, its own secret, its sessions, their selection and their diffs', async () => {
        const lock = discovery(fifth);
        expect(lock.port).to.equal(window.endpointOf(fifth.id).port).and.not.equal(window.server.port);
        const wire = await ClaudeWire.open(lock.port, { 'X-Claude-Code-Ide-Authorization': lock.secret });
        try {
            await wire.handshake();
            await until(() => window.status.sessions.length === 1, 'the session listed');
            expect(window.status.sessions[0]).to.include({ flavour: 'fifth', clientLabel: 'fifth CLI' });
            const target = path.join(fs.realpathSync(workspace), 'a.ts');
            await window.setEditorState({
                isTrusted: true,
                openFiles: [{
                    uri: FileUri.create(target).toString(), timestamp: 1, isActive: true,
                    selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, selectedText: 'const'
                }]
            });
            await until(() => wire.notifications('selection_changed').length > 0, 'selection_changed');
            expect(wire.notifications('selection_changed')[0]).to.include({ text: 'const', filePath: target });

            const pending = wire.call('openDiff', { old_file_path: target, new_file_path: target, new_file_contents: 'const a = 3;\n', tab_name: 'edit' });
            await until(() => frontend.opened.length === 1, 'the diff shown');
            expect(frontend.opened[0].proposedBy).to.match(/^fifth CLI/);
            await window.diffs.resolve(frontend.opened[0].id, { accepted: false });
            expect((await pending).texts[0]).to.equal('DIFF_REJECTED');
        } finally {
            wire.socket.terminate();
        }
    });

    it('keeps each secret to its own endpoint', async () => {
        const streamableSecret = discovery(fourth).secret;
        const websocketSecret = discovery(fifth).secret;
        await ClaudeWire.open(window.endpointOf(fifth.id).port, { 'X-Claude-Code-Ide-Authorization': streamableSecret })
            .then(() => expect.fail('the WebSocket accepted the HTTP endpoint\'s secret'), error => expect(String(error)).to.contain('401'));
        await connectTestClient(window.server.port, websocketSecret)
            .then(() => expect.fail('the HTTP endpoint accepted the WebSocket\'s secret'), error => expect(String(error)).to.match(/401|Unauthorized/));
    });
});
