import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { WebSocket } from 'ws';
import { FileUri } from '../file-uri';
import { ClaudeCodeFlavour, GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { expectStillServing, HostileFiles, within } from '@theia-cli-companion/safe-files/lib/node/test';
import { toRpcText } from '../../common';
import { WindowServer, createWindowServer } from '../window';
import { RecordingLogger, RecordingWindow, until } from '../test';
import { claudeWindowModule } from './claude-window-module';
import { ClaudeWire, refusedWith } from '../test/claude-wire';

describe('Claude Code WebSocket endpoint', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    let workspace: string;
    let window: WindowServer;
    let frontend: RecordingWindow;
    let logger: RecordingLogger;
    let wires: ClaudeWire[];
    const hostile = new HostileFiles();

    beforeEach(async () => {
        home = useTemporaryHome();
        workspace = path.join(home.dir, 'project');
        fs.mkdirSync(workspace);
        fs.writeFileSync(path.join(workspace, 'a.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
        logger = new RecordingLogger();
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-00000000c1a0', flavours: [GeminiCliFlavour, ClaudeCodeFlavour], logger, serverPid: process.pid
        }, undefined, [claudeWindowModule]);
        frontend = new RecordingWindow();
        window.attachFrontend(frontend);
        await window.start([workspace]);
        wires = [];
    });

    afterEach(async () => {
        hostile.release();
        wires.forEach(wire => wire.socket.terminate());
        await window.stop();
        home.restore();
    });

    const lock = () => JSON.parse(fs.readFileSync(window.discoveryFilePaths.get('claude')!, 'utf8'));
    const connect = async () => {
        const wire = await ClaudeWire.open(window.endpointOf('claude').port, { 'X-Claude-Code-Ide-Authorization': lock().authToken });
        wires.push(wire);
        await wire.handshake();
        await until(() => window.status.sessions.some(session => session.flavour === 'claude'), 'the Claude session listed');
        return wire;
    };

    it('writes the lock file as Claude Code reads it (0600 in 0700) and points terminals at the WebSocket port', () => {
        const file = window.discoveryFilePaths.get('claude')!;
        expect(file).to.equal(path.join(process.env.HOME!, '.claude', 'ide', `${window.endpointOf('claude').port}.lock`));
        expect(lock()).to.deep.include({ pid: process.pid, workspaceFolders: [fs.realpathSync(workspace)], ideName: 'Eclipse Theia', transport: 'ws' });
        expect(lock().authToken).to.have.length.of.at.least(40);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        expect(fs.statSync(path.dirname(file)).mode & 0o777).to.equal(0o700);
        expect(window.terminalEnvironment().CLAUDE_CODE_SSE_PORT).to.equal(String(window.endpointOf('claude').port));
        expect(window.endpointOf('claude').port).to.not.equal(window.server.port);
    });

    it('selects the mcp subprotocol and refuses a missing or wrong secret, no mcp, an Origin or a foreign Host', async () => {
        const token = lock().authToken;
        const wire = await ClaudeWire.open(window.endpointOf('claude').port, { 'X-Claude-Code-Ide-Authorization': token }, ['other', 'mcp']);
        wires.push(wire);
        expect(wire.socket.protocol).to.equal('mcp');
        expect(await refusedWith(window.endpointOf('claude').port, {})).to.equal(401);
        expect(await refusedWith(window.endpointOf('claude').port, { 'X-Claude-Code-Ide-Authorization': token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A') })).to.equal(401);
        expect(await refusedWith(window.endpointOf('claude').port, { 'X-Claude-Code-Ide-Authorization': token }, ['other'])).to.equal(400);
        expect(await refusedWith(window.endpointOf('claude').port, { 'X-Claude-Code-Ide-Authorization': token, Origin: 'https://evil.example' })).to.equal(403);
        const port = window.endpointOf('claude').port;
        expect(await refusedWith(port, { 'X-Claude-Code-Ide-Authorization': token, Host: `evil.example:${port}` })).to.equal(403);
        // The HTTP endpoint does not take Claude Code's secret.
        const http = await fetch(`http://127.0.0.1:${window.server.port}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' });
        expect(http.status).to.equal(401);
        expect(logger.lines.join('\n')).to.not.contain(token);
        // Garbage on an open socket gets JSON-RPC errors; the session keeps working.
        wire.socket.send('not json');
        wire.socket.send(JSON.stringify({ hello: 'world' }));
        await until(() => wire.received.filter(message => message.error).length === 2, 'two errors');
        expect(wire.received.map(message => message.error?.code)).to.deep.equal([-32700, -32600]);
        await wire.handshake();
    });

    it('lists the Claude tool set, counts the session as Claude Code, and answers the context tools in Claude\'s shapes', async () => {
        const wire = await connect();
        const tools = ((await wire.request('tools/list')).result as { tools: { name: string }[] }).tools.map(tool => tool.name).sort();
        expect(tools).to.deep.equal(['checkDocumentDirty', 'closeAllDiffTabs', 'close_tab', 'getCurrentSelection', 'getDiagnostics', 'getLatestSelection',
            'getOpenEditors', 'getWorkspaceFolders', 'openDiff', 'openFile', 'saveDocument']);
        expect(window.status.sessions.find(session => session.flavour === 'claude')).to.deep.include({
            clientLabel: 'Claude Code', clientName: 'claude-code', clientVersion: '2.1.332'
        });
        const real = fs.realpathSync(workspace);
        const file = path.join(real, 'a.ts');

        expect(JSON.parse((await wire.call('getWorkspaceFolders')).texts[0])).to.deep.equal({
            success: true, folders: [{ name: 'project', uri: FileUri.create(real).toString(), path: real }], rootPath: real
        });
        expect(JSON.parse((await wire.call('getCurrentSelection')).texts[0])).to.deep.equal({ success: false, message: 'No active editor found' });

        await window.setEditorState({
            isTrusted: true, openFiles: [{
                uri: FileUri.create(file).toString(), timestamp: 1, isActive: true, cursor: { line: 2, character: 1 }, selectedText: 'const b = 2;\n',
                selection: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }
            }]
        });
        const expected = {
            text: 'const b = 2;\n', filePath: file, fileUrl: FileUri.create(file).toString(),
            selection: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 }, isEmpty: false }
        };
        await until(() => wire.notifications('selection_changed').length === 1, 'selection_changed');
        expect(wire.notifications('selection_changed')[0]).to.deep.equal(expected);
        expect(JSON.parse((await wire.call('getCurrentSelection')).texts[0])).to.deep.equal({ success: true, ...expected });
        // Focus leaves the editor: no current selection, the latest stays.
        await window.setEditorState({ isTrusted: true, openFiles: [{ uri: FileUri.create(file).toString(), timestamp: 1 }] });
        expect(JSON.parse((await wire.call('getCurrentSelection')).texts[0]).success).to.equal(false);
        expect(JSON.parse((await wire.call('getLatestSelection')).texts[0])).to.deep.equal({ success: true, ...expected });
        expect(JSON.parse((await wire.call('getOpenEditors')).texts[0])).to.deep.equal({
            tabs: [{ uri: FileUri.create(file).toString(), isActive: false, label: 'a.ts', fileName: file }]
        });

        frontend.diagnostics = [{
            filePath: file,
            diagnostics: [{ severity: 'error', message: 'b is unused', source: 'ts', code: '6133', range: { start: { line: 2, character: 7 }, end: { line: 2, character: 8 } } }]
        }];
        expect(JSON.parse((await wire.call('getDiagnostics', { uri: FileUri.create(file).toString() })).texts[0])).to.deep.equal([{
            uri: FileUri.create(file).toString(),
            diagnostics: [{ message: 'b is unused', severity: 'Error', source: 'ts', code: '6133', range: { start: { line: 1, character: 6 }, end: { line: 1, character: 7 } } }]
        }]);
        expect(JSON.parse((await wire.call('checkDocumentDirty', { filePath: file })).texts[0])).to.deep.equal({ success: false, message: `Document not open: ${file}` });
        frontend.documents.set(file, true);
        expect(JSON.parse((await wire.call('checkDocumentDirty', { filePath: file })).texts[0])).to.deep.equal({ success: true, filePath: file, isDirty: true, isUntitled: false });
        expect(JSON.parse((await wire.call('saveDocument', { filePath: file })).texts[0])).to.deep.include({ success: true, saved: true });
        expect(frontend.saved).to.deep.equal([file]);

        expect((await wire.call('openFile', { filePath: file, startText: 'const b', endText: 'const c' })).texts).to.deep.equal([`Opened file: ${file}`]);
        expect(frontend.openedFiles.pop()).to.deep.equal({ fileUri: FileUri.create(file).toString(), startLine: 2, endLine: 3, select: true });
        await wire.call('openFile', { filePath: file, startLine: 3 });
        expect(frontend.openedFiles.pop()).to.deep.include({ startLine: 3, endLine: 3, select: false });

        const outside = await wire.call('openFile', { filePath: path.join(home.dir, 'elsewhere.ts') });
        expect(outside.isError).to.equal(true);
        expect(outside.texts[0]).to.contain('outside the workspace folders');
        const invalid = await wire.call('checkDocumentDirty', {});
        expect(invalid.isError).to.equal(true);
        expect(invalid.texts[0]).to.contain('filePath');
    });

    it('openFile with startText never searches a named pipe or a link to /dev/zero: an error at once, and the server keeps serving', async () => {
        const wire = await connect();
        const real = fs.realpathSync(workspace);
        const pipe = hostile.pipe(path.join(real, 'pipe.ts'));
        const zero = hostile.linkToDevZero(path.join(real, 'zero.ts'));
        const piped = await within(1000, 'openFile on a named pipe', wire.call('openFile', { filePath: pipe, startText: 'x' }));
        expect(piped.isError).to.equal(true);
        expect(piped.texts[0]).to.contain('is not a regular file (a named pipe)');
        const zeroed = await within(1000, 'openFile on a link to /dev/zero', wire.call('openFile', { filePath: zero, startText: 'x' }));
        expect(zeroed.isError).to.equal(true);
        await expectStillServing(path.join(real, 'a.ts'));
        expect((await wire.call('openFile', { filePath: path.join(real, 'a.ts'), startText: 'const c' })).texts).to.deep.equal([`Opened file: ${path.join(real, 'a.ts')}`]);
    });

    it('tells Claude Code nothing of editors and problems of files outside the workspace folders', async () => {
        const wire = await connect();
        const inside = path.join(fs.realpathSync(workspace), 'a.ts');
        const secret = path.join(home.dir, 'elsewhere', 'id_rsa');
        await window.setEditorState({
            isTrusted: true, openFiles: [
                {
                    uri: FileUri.create(secret).toString(), timestamp: 2, isActive: true, cursor: { line: 1, character: 1 }, selectedText: 'PRIVATE KEY',
                    selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 11 } }
                },
                { uri: FileUri.create(inside).toString(), timestamp: 1 }
            ]
        });
        expect(JSON.parse((await wire.call('getOpenEditors')).texts[0]).tabs.map((tab: { fileName: string }) => tab.fileName)).to.deep.equal([inside]);
        expect(JSON.parse((await wire.call('getCurrentSelection')).texts[0]).success).to.equal(false);
        expect(JSON.parse((await wire.call('getLatestSelection')).texts[0]).success).to.equal(false);
        expect(wire.notifications('selection_changed')).to.deep.equal([]);
        frontend.diagnostics = [{ filePath: secret, diagnostics: [] }, { filePath: inside, diagnostics: [] }];
        expect(JSON.parse((await wire.call('getDiagnostics', {})).texts[0])).to.deep.equal([{ uri: FileUri.create(inside).toString(), diagnostics: [] }]);
    });

    it('blocks openDiff until the user answers: FILE_SAVED with the edited text, DIFF_REJECTED, close_tab and closeAllDiffTabs', async () => {
        const wire = await connect();
        const file = path.join(fs.realpathSync(workspace), 'a.ts');
        const openDiff = (tab: string, contents: string) => wire.request('tools/call', {
            name: 'openDiff', arguments: { old_file_path: file, new_file_path: file, new_file_contents: contents, tab_name: tab }
        });
        const texts = (answer: { result?: Record<string, unknown> }) => (answer.result as { content: { text: string }[] }).content.map(block => block.text);

        const accepted = openDiff('✻ [Claude Code] a.ts ⧉', 'const a = 10;\n');
        await until(() => frontend.opened.length === 1, 'the diff shown');
        expect(frontend.opened[0]).to.deep.include({ fileUri: FileUri.create(file).toString(), newContent: 'const a = 10;\n', fileExists: true });
        expect(window.status.pendingDiffs).to.have.length(1);
        await window.diffs.resolve(frontend.opened[0].id, { accepted: true, content: toRpcText('const a = 10; // edited\n') });
        expect(texts(await accepted)).to.deep.equal(['FILE_SAVED', 'const a = 10; // edited\n']);
        expect(fs.readFileSync(file, 'utf8'), 'the CLI writes, not the IDE').to.equal('const a = 1;\nconst b = 2;\nconst c = 3;\n');

        const rejected = openDiff('tab-2', 'x\n');
        await until(() => frontend.opened.length === 2, 'the second diff');
        await window.diffs.resolve(frontend.opened[1].id, { accepted: false });
        expect(texts(await rejected)[0]).to.equal('DIFF_REJECTED');

        const closed = openDiff('tab-3', 'y\n');
        await until(() => frontend.opened.length === 3, 'the third diff');
        expect((await wire.call('close_tab', { tab_name: 'tab-3' })).texts).to.deep.equal(['TAB_CLOSED']);
        expect(frontend.closed).to.include(frontend.opened[2].id);
        expect(texts(await closed)[0]).to.equal('DIFF_REJECTED');

        void openDiff('tab-4', 'z\n');
        await until(() => frontend.opened.length === 4, 'the fourth diff');
        expect((await wire.call('closeAllDiffTabs')).texts).to.deep.equal(['CLOSED_1_DIFF_TABS']);
        expect((await wire.call('closeAllDiffTabs')).texts).to.deep.equal(['CLOSED_0_DIFF_TABS']);
        expect(window.status.pendingDiffs).to.deep.equal([]);

        const outside = await wire.call('openDiff', { old_file_path: '/etc/passwd', new_file_path: '/etc/passwd', new_file_contents: 'x', tab_name: 't' });
        expect(outside.isError).to.equal(true);
        expect(outside.texts[0]).to.contain('outside the workspace folders');
    });

    it('closes a pending diff when its Claude session goes, and sends at_mentioned to the window\'s sessions only', async () => {
        const wire = await connect();
        const file = path.join(fs.realpathSync(workspace), 'a.ts');
        expect(await window.sendAtMention({ filePath: file, lineStart: 1, lineEnd: 2 })).to.equal(1);
        await until(() => wire.notifications('at_mentioned').length === 1, 'at_mentioned');
        expect(wire.notifications('at_mentioned')[0]).to.deep.equal({ filePath: file, lineStart: 1, lineEnd: 2 });
        await window.sendAtMention({ filePath: path.join(home.dir, 'outside.ts') }).then(() => expect.fail('sent'), error => expect(String(error)).to.contain('outside'));

        wire.request('tools/call', { name: 'openDiff', arguments: { old_file_path: file, new_file_path: file, new_file_contents: 'q\n', tab_name: 't' } }).catch(() => undefined);
        await until(() => frontend.opened.length === 1, 'the diff shown');
        wire.socket.close();
        await until(() => window.status.pendingDiffs.length === 0 && frontend.closed.includes(frontend.opened[0].id), 'the diff closed with its session');
        expect(window.status.sessions.filter(session => session.flavour === 'claude')).to.deep.equal([]);
    });

    it('turning Claude Code off removes its lock file, refuses new connections and ends its sessions', async () => {
        const wire = await connect();
        const file = window.discoveryFilePaths.get('claude')!;
        const token = lock().authToken;
        await window.setFlavours(['gemini']);
        expect(fs.existsSync(file)).to.equal(false);
        await until(() => wire.socket.readyState === WebSocket.CLOSED, 'the session closed');
        expect(await refusedWith(window.endpointOf('claude').port, { 'X-Claude-Code-Ide-Authorization': token })).to.equal(401);
        expect(window.terminalEnvironment().CLAUDE_CODE_SSE_PORT).to.equal(undefined);
    });
    describe('noise and exhaustion', () => {
        it('logs the first refused connection of a kind and summarises the rest: 500 refusals make a handful of lines', async () => {
            const port = window.endpointOf('claude').port;
            const token = lock().authToken;
            for (let batch = 0; batch < 10; batch++) {
                const statuses = await Promise.all(Array.from({ length: 50 }, () => refusedWith(port, { 'X-Claude-Code-Ide-Authorization': token, Origin: 'https://evil.example' })));
                expect(statuses).to.deep.equal(Array(50).fill(403));
            }
            const refusals = () => logger.lines.filter(line => /refused/i.test(line));
            expect(refusals().length, refusals().join('\n')).to.be.within(1, 3);
            expect(refusals()[0]).to.match(/^WARN Refused a Claude Code connection \(403\): Forbidden: connections from web pages/);
            await window.stop();
            const counted = refusals().slice(1).reduce((sum, line) => sum + Number(/^WARN (\d+) more Claude Code connections refused \(403 Origin\) in the last \d+ s$/.exec(line)![1]), 0);
            expect(counted).to.equal(499);
            expect(logger.lines.join('\n')).to.not.contain(token);
        });

        it('serves at most 64 sessions: the 65th connection is refused with 503, the first 64 keep working', async function (): Promise<void> {
            this.timeout(20000);
            const port = window.endpointOf('claude').port;
            const headers = { 'X-Claude-Code-Ide-Authorization': lock().authToken };
            for (let batch = 0; batch < 8; batch++) {
                wires.push(...await Promise.all(Array.from({ length: 8 }, () => ClaudeWire.open(port, headers))));
            }
            await until(() => window.status.sessions.length === 0 && wires.length === 64, 'the sockets open');
            expect(await refusedWith(port, headers)).to.equal(503);
            expect(logger.lines.some(line => /Refused a Claude Code connection \(503\): .*at most 64 sessions/.test(line))).to.equal(true, logger.lines.join('\n'));
            await Promise.all(wires.map(wire => wire.handshake()));
            await until(() => window.status.sessions.length === 64, '64 sessions listed');
            const answers = await Promise.all(wires.map(wire => wire.request('tools/list')));
            expect(answers.every(answer => Array.isArray((answer.result as { tools: unknown[] }).tools))).to.equal(true);
            // One goes: its place is free again.
            wires[0].socket.close();
            await until(() => window.status.sessions.length === 63, 'a session gone');
            wires.push(await ClaudeWire.open(port, headers));
        });

        it('logs and lists Claude Code\'s name and version without control characters, capped', async () => {
            const wire = await ClaudeWire.open(window.endpointOf('claude').port, { 'X-Claude-Code-Ide-Authorization': lock().authToken });
            wires.push(wire);
            await wire.request('initialize', {
                protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: '\n\u001b[31mclaude\u0000' + 'c'.repeat(10000), version: '2\r\n\u001b]0;title\u0007' }
            });
            wire.notify('notifications/initialized');
            await until(() => window.status.sessions.length === 1, 'the session listed');
            const line = logger.lines.find(candidate => candidate.includes('connected:'))!;
            expect(line).to.not.match(/[\u0000-\u001f\u007f-\u009f]/);
            expect(line.length).to.be.below(400);
            const [session] = window.status.sessions;
            expect(session.clientName).to.match(/^claudec+…$/);
            expect(session.clientName.length).to.be.at.most(100);
            expect(session.clientVersion).to.equal('2');
        });
    });
});
