import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { GeminiCliFlavour, QwenCodeFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { privateTmpDirectory } from '@theia-cli-companion/safe-files/lib/node';
import { WindowServer } from './window-server';
import { createWindowServer } from './window-server-module';
import { RecordingLogger } from './test/recording-logger';
import { FileUri } from './file-uri';
import { connectTestClient, until } from './test/mcp-test-client';
import { rawRequest } from './test/raw-http';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';

const connect = (port: number, token: string) => connectTestClient(port, token);

describe('WindowServer', () => {
    let root: string;
    let home: ReturnType<typeof useTemporaryHome>;
    let companion: WindowServer | undefined;

    beforeEach(() => {
        home = useTemporaryHome();
        root = home.dir;
    });
    afterEach(async () => {
        await companion?.stop();
        companion = undefined;
        home.restore();
    });

    // A short stream grace: a closed test client's session ends quickly (the SDK client sends no DELETE).
    const create = (logger = new RecordingLogger()) => companion = createWindowServer({
        windowId: '00000000-0000-4000-8000-000000000000', flavours: [GeminiCliFlavour, QwenCodeFlavour], logger, serverPid: process.pid, streamGraceMs: 200,
        stdioFor: file => ({ command: process.execPath, args: ['bridge.js', '--discovery', file] })
    });
    const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

    it('writes both discovery files on start, with realpath\'d roots and a stdio entry naming the file itself', async () => {
        const real = path.join(root, 'real project');
        fs.mkdirSync(real);
        const link = path.join(root, 'link');
        fs.symlinkSync(real, link);
        const window = create();
        await window.start([link]);
        const files = window.discoveryFilePaths;
        const gemini = read(files.get('gemini')!);
        expect(gemini.workspacePath).to.equal(real);
        expect(gemini.stdio.args).to.deep.equal(['bridge.js', '--discovery', files.get('gemini')]);
        expect(read(files.get('qwen')!).stdio.args[2]).to.equal(files.get('qwen'));
        expect(window.terminalEnvironment()).to.deep.equal({
            GEMINI_CLI_IDE_SERVER_PORT: String(window.server.port), GEMINI_CLI_IDE_WORKSPACE_PATH: real, GEMINI_CLI_IDE_PID: String(process.pid),
            QWEN_CODE_IDE_SERVER_PORT: String(window.server.port), QWEN_CODE_IDE_WORKSPACE_PATH: real
        });
    });

    it('writes Gemini CLI\'s file to the standard <tmpdir>/gemini/ide this user holds, gives the terminals no TMPDIR, and says why in the status', async () => {
        const window = create();
        await window.start([root]);
        const file = window.discoveryFilePaths.get('gemini')!;
        expect(path.dirname(file)).to.equal(path.join(process.env.TMPDIR!, 'gemini', 'ide'));
        expect(fs.statSync(path.dirname(file)).mode & 0o777).to.equal(0o700);
        expect(window.terminalEnvironment()).to.not.have.property('TMPDIR');
        expect(window.status.discoveryFiles.find(info => info.flavour === 'gemini')).to.deep.include({ path: file })
            .and.to.have.property('placement').that.matches(/^the standard directory/);
        expect(window.status.discoveryFiles.find(info => info.flavour === 'qwen')).to.not.have.property('placement');
    });

    it('rewrites the files when roots change, skipping roots that do not exist or contain the delimiter', async () => {
        const a = path.join(root, 'a');
        const b = path.join(root, 'b:c');
        fs.mkdirSync(a);
        fs.mkdirSync(b);
        const logger = new RecordingLogger();
        const window = create(logger);
        await window.start([a]);
        await window.setRoots([a, b, path.join(root, 'missing')]);
        expect(read(window.discoveryFilePaths.get('gemini')!).workspacePath).to.equal(a);
        expect(logger.lines.filter(line => line.startsWith('WARN'))).to.have.length(2);
        await window.setRoots([]);
        expect(read(window.discoveryFilePaths.get('qwen')!).workspacePath).to.equal('');
    });

    it('removes its files on stop', async () => {
        const window = create();
        await window.start([root]);
        const files = [...window.discoveryFilePaths.values()];
        expect(files.every(file => fs.existsSync(file))).to.equal(true);
        await window.stop();
        companion = undefined;
        expect(files.some(file => fs.existsSync(file))).to.equal(false);
    });

    it('writes an accepted text (diff.writeOnAccept) inside its roots only: never through a link planted in the file\'s place or on its way', async () => {
        const workspace = path.join(root, 'workspace');
        const outside = path.join(root, 'outside');
        fs.mkdirSync(workspace);
        fs.mkdirSync(outside);
        fs.writeFileSync(path.join(outside, 'secret.txt'), 'theirs\n');
        const window = create();
        await window.start([workspace]);
        await window.writeAccepted(path.join(workspace, 'notes.md'), 'accepted\r\n');
        expect(fs.readFileSync(path.join(workspace, 'notes.md'), 'utf8')).to.equal('accepted\r\n');
        // The repository (or an agent) put links where the proposal's file is, and where its folder is.
        fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'linked.md'));
        fs.symlinkSync(outside, path.join(workspace, 'docs'));
        for (const file of [path.join(workspace, 'linked.md'), path.join(workspace, 'docs', 'secret.txt'), path.join(outside, 'secret.txt')]) {
            const error = await window.writeAccepted(file, 'accepted\n').then(() => undefined, (refusal: Error) => refusal);
            expect(error?.message, file).to.contain('refused');
        }
        expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).to.equal('theirs\n');
    });

    it('pushes the editor state to every session, sends the current one to a new session at once, and clears the active editor', async () => {
        const window = create();
        await window.start([root]);
        const first = await connect(window.server.port, window.endpointFor('gemini').authToken);
        const file = path.join(root, 'a file.ts');
        await window.setEditorState({
            isTrusted: true,
            openFiles: [
                { uri: FileUri.create(file).toString(), timestamp: 2, isActive: true, cursor: { line: 3, character: 4 }, selectedText: 'x'.repeat(20000) },
                { uri: 'untitled:Untitled-1', timestamp: 1 }
            ]
        });
        const expected = {
            workspaceState: { isTrusted: true, openFiles: [{ path: file, timestamp: 2, isActive: true, cursor: { line: 3, character: 4 }, selectedText: 'x'.repeat(16384) }] }
        };
        await until(() => first.updates.length === 1);
        expect(first.updates[0]).to.deep.equal(expected);

        // The same state again is not sent again.
        await window.setEditorState({
            isTrusted: true,
            openFiles: [{ uri: FileUri.create(file).toString(), timestamp: 2, isActive: true, cursor: { line: 3, character: 4 }, selectedText: 'x'.repeat(20000) }]
        });
        const second = await connect(window.server.port, window.endpointFor('gemini').authToken);
        await until(() => second.updates.length === 1);
        expect(second.updates[0]).to.deep.equal(expected);
        expect(first.updates).to.have.length(1);

        await window.clearActiveEditor();
        await until(() => first.updates.length === 2 && second.updates.length === 2);
        expect(second.updates[1]).to.deep.equal({ workspaceState: { isTrusted: true, openFiles: [{ path: file, timestamp: 2 }] } });
        await first.client.close();
        await second.client.close();
    });

    it('rejects a malformed editor state and keeps the last good one', async () => {
        const window = create();
        await window.start([root]);
        const good = { isTrusted: false, openFiles: [{ uri: FileUri.create(path.join(root, 'a')).toString(), timestamp: 1 }] };
        await window.setEditorState(good);
        for (const bad of [null, {}, { openFiles: 'x', isTrusted: true }, { isTrusted: true, openFiles: [{ uri: 'file:///a', timestamp: 'yesterday' }] },
            { isTrusted: true, openFiles: [{ uri: 'file:///a', timestamp: 1, isActive: true, cursor: { line: 0, character: 1 } }] }]) {
            let error: Error | undefined;
            await window.setEditorState(bad as never).catch(e => error = e);
            expect(error, JSON.stringify(bad)).to.be.instanceOf(Error);
        }
        expect(window.currentContext?.workspaceState?.openFiles?.[0].path).to.equal(path.join(root, 'a'));
    });

    it('gives each flavour its own secret, so every session is known by the file its CLI read', async () => {
        const window = create();
        await window.start([root]);
        const geminiToken = read(window.discoveryFilePaths.get('gemini')!).authToken;
        const qwenToken = read(window.discoveryFilePaths.get('qwen')!).authToken;
        expect(geminiToken).to.not.equal(qwenToken);
        const gemini = await connect(window.server.port, geminiToken);
        const qwen = await connect(window.server.port, qwenToken);
        expect(window.status.sessions.map(session => session.flavour).sort()).to.deep.equal(['gemini', 'qwen']);
        await gemini.client.close();
        await qwen.client.close();
    });

    it('lets no other secret of the window use a session: not another flavour\'s, not an ACP agent\'s', async () => {
        const window = create();
        await window.start([root]);
        const gemini = await connect(window.server.port, window.endpointFor('gemini').authToken);
        const agent = window.issueAgentCredential('ACP agent Spec');
        const sessionId = gemini.transport.sessionId!;
        for (const token of [window.endpointFor('qwen').authToken, agent.token]) {
            const headers = {
                'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: `127.0.0.1:${window.server.port}`,
                Authorization: `Bearer ${token}`, 'Mcp-Session-Id': sessionId
            };
            const call = await rawRequest(window.server.port, {
                headers, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'closeDiff', arguments: { filePath: path.join(root, 'a.txt') } } })
            });
            const stream = await rawRequest(window.server.port, { method: 'GET', headers });
            const end = await rawRequest(window.server.port, { method: 'DELETE', headers });
            expect([call.status, stream.status, end.status]).to.deep.equal([403, 403, 403]);
        }
        expect((await gemini.client.listTools()).tools.map(tool => tool.name)).to.include('closeDiff');
        expect(window.status.sessions.map(session => session.sessionId)).to.deep.equal([sessionId]);
        await gemini.client.close();
        await agent.revoke();
    });

    it('turning a flavour off removes its file, its variables and its sessions; turning it on again brings a new secret', async () => {
        const window = create();
        await window.start([root], ['gemini', 'qwen']);
        const qwenFile = window.discoveryFilePaths.get('qwen')!;
        const oldQwenToken = read(qwenFile).authToken;
        const qwen = await connect(window.server.port, oldQwenToken);
        const gemini = await connect(window.server.port, window.endpointFor('gemini').authToken);
        let statusEvents = 0;
        window.onDidChangeStatus(() => statusEvents++);

        await window.setFlavours(['gemini']);
        expect(fs.existsSync(qwenFile)).to.equal(false);
        expect(fs.existsSync(window.discoveryFilePaths.get('gemini')!)).to.equal(true);
        expect(Object.keys(window.terminalEnvironment()).some(name => name.startsWith('QWEN'))).to.equal(false);
        expect(window.status.flavours).to.deep.equal(['gemini']);
        expect(window.status.sessions.map(session => session.flavour)).to.deep.equal(['gemini']);
        expect(statusEvents).to.be.greaterThan(0);
        let refused: Error | undefined;
        await connect(window.server.port, oldQwenToken).catch(error => refused = error);
        expect(refused?.message).to.match(/401|Unauthorized/);

        await window.setFlavours(['gemini', 'qwen']);
        const newQwenToken = read(window.discoveryFilePaths.get('qwen')!).authToken;
        expect(newQwenToken).to.not.equal(oldQwenToken);
        expect(window.terminalEnvironment().QWEN_CODE_IDE_SERVER_PORT).to.equal(String(window.server.port));
        let unknown: Error | undefined;
        await window.setFlavours(['gemini', 'emacs' as never]).catch(error => unknown = error);
        expect(unknown?.message).to.match(/Unknown CLI flavour\(s\): emacs/);
        expect(window.status.flavours).to.deep.equal(['gemini', 'qwen']);
        await gemini.client.close();
        await qwen.client.close().catch(() => undefined);
    });

    it('keeps a bounded log of its events for the window, without secrets', async () => {
        const window = create();
        const seen: string[] = [];
        window.onDidLog(event => seen.push(event.message));
        await window.start([root]);
        const token = window.endpointFor('qwen').authToken;
        const cli = await connect(window.server.port, token);
        await fetch(`http://127.0.0.1:${window.server.port}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${token}x`, 'Content-Type': 'application/json' }, body: '{}' });
        await cli.client.close();
        await until(() => window.log.recent.some(event => /disconnected/.test(event.message)));
        const messages = window.log.recent.map(event => `${event.level} ${event.message}`);
        expect(messages.some(message => /^info .*companion server on 127\.0\.0\.1:\d+ .*advertised to Gemini CLI, Qwen Code/.test(message))).to.equal(true, messages.join('\n'));
        expect(messages.some(message => /^info CLI session .* connected: spec-client 1\.2\.3 \(with the qwen discovery token\)/.test(message))).to.equal(true, messages.join('\n'));
        expect(messages.some(message => /^warn Refused a request \(401\): Unauthorized: invalid bearer token/.test(message))).to.equal(true, messages.join('\n'));
        expect(seen).to.deep.equal(window.log.recent.map(event => event.message));
        for (const secret of [token, window.endpointFor('gemini').authToken]) {
            expect(messages.join('\n')).to.not.contain(secret);
        }
    });

    it('serves the other CLIs when one flavour\'s discovery directory cannot be used, and says which and why', async () => {
        // Qwen's ide directory is a file: its lock cannot be written, Gemini CLI's file can.
        fs.mkdirSync(path.join(process.env.HOME!, '.qwen'));
        fs.writeFileSync(path.join(process.env.HOME!, '.qwen', 'ide'), 'in the way');
        const logger = new RecordingLogger();
        const window = create(logger);
        await window.start([root]);
        expect(fs.existsSync(window.discoveryFilePaths.get('gemini')!)).to.equal(true);
        expect(window.discoveryFilePaths.has('qwen')).to.equal(false);
        expect(window.status.unavailableFlavours).to.have.length(1);
        expect(window.status.unavailableFlavours[0].flavour).to.equal('qwen');
        expect(window.status.unavailableFlavours[0].reason).to.match(/\.qwen\/ide is not a directory \(a symbolic link or file is in the way\)$/);
        expect(Object.keys(window.terminalEnvironment())).to.include('GEMINI_CLI_IDE_SERVER_PORT').and.not.include('QWEN_CODE_IDE_SERVER_PORT');
        expect(logger.lines.some(line => /^WARN .*Qwen Code cannot use IDE mode in this window: /.test(line))).to.equal(true, logger.lines.join('\n'));
        const token = window.endpointFor('gemini').authToken;
        const cli = await connect(window.server.port, token);
        await cli.client.close();
        // Once the way is clear, the next write brings Qwen Code back.
        fs.rmSync(path.join(process.env.HOME!, '.qwen', 'ide'));
        await window.setRoots([root]);
        expect(window.status.unavailableFlavours).to.deep.equal([]);
        expect(fs.existsSync(window.discoveryFilePaths.get('qwen')!)).to.equal(true);
    });

    it('serves the other CLIs when a flavour\'s directory belongs to another account', async function (): Promise<void> {
        if (process.getuid?.() !== 0) {
            // Needs chown to another uid. CI runs as root, where this never skips.
            this.skip();
        }
        const dir = path.join(process.env.HOME!, '.qwen', 'ide');
        fs.mkdirSync(dir, { recursive: true });
        fs.chownSync(dir, 65534, 65534);
        const window = create();
        await window.start([root]);
        expect(window.status.unavailableFlavours.map(({ flavour, reason }) => `${flavour}: ${reason}`)).to.deep.equal([
            `qwen: ${dir} belongs to uid 65534, not to this user (uid 0); refusing to write a secret there`
        ]);
        expect(fs.existsSync(window.discoveryFilePaths.get('gemini')!)).to.equal(true);
    });

    it('uses a private directory, handed to terminals as TMPDIR, when <tmpdir>/gemini is another account\'s or world-writable: planted files change nothing', async () => {
        const shared = path.join(process.env.TMPDIR!, 'gemini');
        fs.mkdirSync(path.join(shared, 'ide'), { recursive: true });
        fs.chmodSync(shared, 0o777);
        fs.chmodSync(path.join(shared, 'ide'), 0o777);
        const planted = path.join(shared, 'ide', `gemini-ide-server-${process.pid}.json`);
        fs.writeFileSync(planted, JSON.stringify({ port: 1, authToken: 'x', stdio: { command: '/bin/sh', args: ['-c', 'touch pwned'] } }));
        if (process.getuid?.() === 0) {
            fs.chownSync(shared, 65534, 65534);
            fs.chownSync(path.join(shared, 'ide'), 65534, 65534);
        }
        const window = create();
        await window.start([root]);
        const file = window.discoveryFilePaths.get('gemini')!;
        expect(path.dirname(file)).to.equal(path.join(privateTmpDirectory(), 'gemini', 'ide'));
        expect(privateTmpDirectory().startsWith(process.env.TMPDIR! + path.sep)).to.equal(true);
        expect(fs.readdirSync(path.join(shared, 'ide'))).to.deep.equal([path.basename(planted)]);
        // A CLI in the window's terminals resolves os.tmpdir() to the private directory, where only our file is.
        expect(window.terminalEnvironment().TMPDIR).to.equal(privateTmpDirectory());
        expect(fs.readdirSync(path.dirname(file))).to.deep.equal([path.basename(file)]);
        expect(fs.statSync(privateTmpDirectory()).mode & 0o777).to.equal(0o700);
        expect(window.status.discoveryFiles.find(info => info.flavour === 'gemini')?.placement).to.match(/^a private directory, given to this window's terminals as TMPDIR/)
            .and.to.contain(process.getuid?.() === 0 ? 'belongs to another account (uid 65534)' : 'is writable by other accounts');
    });
});
