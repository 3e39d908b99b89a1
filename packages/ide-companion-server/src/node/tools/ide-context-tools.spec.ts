import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FileUri } from '../file-uri';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { connectTestClient, TestClient, until } from '../test/mcp-test-client';
import { RecordingLogger } from '../test/recording-logger';
import { RecordingWindow } from '../test/recording-window';
import { AgentCredential, WindowServer } from '../window-server';
import { createWindowServer } from '../window-server-module';
import { IDE_CONTEXT_TOOL_NAMES } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

const IDE_TOOLS = [...IDE_CONTEXT_TOOL_NAMES].sort();

/** The IDE tools an agent calls on its window, and the per-agent secret that lets it in. */
describe('IdeContextTools on a window server, for an ACP agent', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    let root: string;
    let window: WindowServer;
    let browser: RecordingWindow;
    let credential: AgentCredential;
    let agent: TestClient;

    beforeEach(async () => {
        home = useTemporaryHome();
        root = path.join(home.dir, 'project');
        fs.mkdirSync(path.join(root, 'src'), { recursive: true });
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-000000000001', flavours: [GeminiCliFlavour], logger: new RecordingLogger(), serverPid: process.pid, streamGraceMs: 200
        });
        await window.start([root]);
        browser = new RecordingWindow();
        window.attachFrontend(browser);
        credential = window.issueAgentCredential('ACP agent Gemini');
        agent = await connectTestClient(window.server.port, credential.token, 'gemini-cli-mcp-client', '0.61.0');
    });

    afterEach(async () => {
        await agent.client.close().catch(() => undefined);
        await window.stop();
        home.restore();
    });

    const call = async (name: string, args: Record<string, unknown> = {}) => agent.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    const json = (result: CallToolResult) => {
        expect(result.isError, JSON.stringify(result)).to.not.equal(true);
        return JSON.parse((result.content[0] as { text: string }).text);
    };
    const error = (result: CallToolResult) => {
        expect(result.isError).to.equal(true);
        return (result.content[0] as { text: string }).text;
    };

    it('lists the agent under its own label, with the IDE tools and without IDE mode\'s diff tools', async () => {
        const session = window.status.sessions.find(candidate => candidate.clientName === 'gemini-cli-mcp-client')!;
        expect(session).to.deep.include({ clientLabel: 'ACP agent Gemini', flavour: undefined });
        expect((await agent.client.listTools()).tools.map(t => t.name).sort()).to.deep.equal(IDE_TOOLS);
        const cli = await connectTestClient(window.server.port, window.endpointFor('gemini').authToken);
        expect((await cli.client.listTools()).tools.map(t => t.name).sort()).to.deep.equal([...IDE_TOOLS, 'closeDiff', 'openDiff'].sort());
        await cli.client.close();
    });

    it('answers the workspace folders, open editors and selection from the window\'s state', async () => {
        const file = path.join(root, 'src', 'a.ts');
        expect(json(await call('getWorkspaceFolders'))).to.deep.equal({ folders: [{ path: fs.realpathSync(root), name: 'project' }] });
        expect(json(await call('getCurrentSelection'))).to.deep.equal({ filePath: null });
        await window.setEditorState({
            isTrusted: true, openFiles: [
                { uri: FileUri.create(file).toString(), timestamp: 2, isActive: true, cursor: { line: 3, character: 5 }, selectedText: 'answer' },
                { uri: FileUri.create(path.join(root, 'README.md')).toString(), timestamp: 1 }
            ]
        });
        expect(json(await call('getOpenEditors')).editors.map((editor: { path: string }) => editor.path)).to.deep.equal([file, path.join(root, 'README.md')]);
        expect(json(await call('getCurrentSelection'))).to.deep.equal({ filePath: file, cursor: { line: 3, character: 5 }, selectedText: 'answer' });
    });

    it('leaves out editors and problems of files outside the workspace folders, for agents and CLIs alike', async () => {
        const inside = path.join(root, 'src', 'a.ts');
        const elsewhere = path.join(home.dir, 'elsewhere');
        fs.mkdirSync(elsewhere);
        const secret = path.join(elsewhere, 'id_rsa');
        // A link in the workspace to a folder outside: an editor opened through it is outside too.
        fs.symlinkSync(elsewhere, path.join(root, 'escape'));
        await window.setEditorState({
            isTrusted: true, openFiles: [
                { uri: FileUri.create(secret).toString(), timestamp: 3, isActive: true, cursor: { line: 1, character: 1 }, selectedText: 'PRIVATE KEY' },
                { uri: FileUri.create(path.join(root, 'escape', 'notes.md')).toString(), timestamp: 2 },
                { uri: FileUri.create(inside).toString(), timestamp: 1 }
            ]
        });
        expect(json(await call('getOpenEditors')).editors).to.deep.equal([{ path: inside, timestamp: 1 }]);
        expect(json(await call('getCurrentSelection'))).to.deep.equal({ filePath: null });
        expect(JSON.stringify(window.currentContext), 'what ide/contextUpdate tells the CLIs').to.not.contain('elsewhere').and.not.contain('PRIVATE KEY');
        browser.diagnostics = [
            {
                filePath: secret,
                diagnostics: [{ severity: 'error', message: 'PRIVATE KEY is not valid TypeScript', range: { start: { line: 1, character: 1 }, end: { line: 1, character: 2 } } }]
            },
            { filePath: inside, diagnostics: [] }
        ];
        expect(json(await call('getDiagnostics')).files.map((file: { filePath: string }) => file.filePath)).to.deep.equal([inside]);
        expect(error(await call('getDiagnostics', { filePath: secret }))).to.match(/outside the workspace folders/);

        // The folder opened later: its editors are told from then on, without waiting for the window.
        await window.setRoots([root, elsewhere]);
        expect(json(await call('getCurrentSelection'))).to.deep.equal({ filePath: secret, cursor: { line: 1, character: 1 }, selectedText: 'PRIVATE KEY' });
    });

    it('asks the window for problems, dirty state, saving and opening, for workspace files only', async () => {
        const file = path.join(fs.realpathSync(root), 'src', 'a.ts');
        browser.diagnostics = [{
            filePath: file,
            diagnostics: [{ severity: 'error', message: 'Cannot find name x', source: 'ts', range: { start: { line: 2, character: 1 }, end: { line: 2, character: 2 } } }]
        }];
        browser.documents.set(file, true);
        expect(json(await call('getDiagnostics', { filePath: file })).files).to.deep.equal(browser.diagnostics);
        expect(json(await call('getDiagnostics')).files).to.have.length(1);
        expect(json(await call('checkDocumentDirty', { filePath: file }))).to.deep.equal({ filePath: file, isOpen: true, isDirty: true });
        expect(json(await call('saveDocument', { filePath: file }))).to.deep.equal({ filePath: file, isOpen: true, isDirty: false });
        expect(browser.saved).to.deep.equal([file]);
        expect(json(await call('openFile', { filePath: file, startLine: 4, endLine: 6, select: true }))).to.deep.equal({ opened: file });
        expect(browser.openedFiles).to.deep.equal([{ fileUri: FileUri.create(file).toString(), startLine: 4, endLine: 6, select: true }]);

        expect(error(await call('checkDocumentDirty', { filePath: '/etc/passwd' }))).to.match(/outside the workspace folders/);
        expect(error(await call('saveDocument', { filePath: 'src/a.ts' }))).to.match(/must be absolute/);
        expect(error(await call('openFile', { filePath: file, endLine: 3 }))).to.match(/endLine needs a startLine/);
        expect(error(await call('getDiagnostics', { filePath: file, extra: 1 }))).to.match(/Input validation error.*extra/s);
        expect(browser.openedFiles).to.have.length(1);
    });

    it('says so when the window is not open', async () => {
        window.attachFrontend(undefined);
        expect(error(await call('checkDocumentDirty', { filePath: path.join(root, 'src', 'a.ts') }))).to.match(/window of this session is not open/);
    });

    it('revoking the agent\'s secret ends its session and refuses the secret', async () => {
        await credential.revoke();
        await until(() => window.status.sessions.length === 0, 'the agent session to end');
        const refused = await fetch(credential.url, { method: 'POST', headers: { Authorization: `Bearer ${credential.token}`, 'Content-Type': 'application/json' }, body: '{}' });
        expect(refused.status).to.equal(401);
        expect(credential.url).to.equal(`http://127.0.0.1:${window.server.port}/mcp`);
    });
});
