import { execFileSync } from 'child_process';
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import processBackendModule from '@theia/process/lib/node/process-backend-module';
import { ProcessManager } from '@theia/process/lib/node/process-manager';
import { AcpChatClient } from '../common/acp-chat-protocol';
import { AcpChatBackendImpl } from './acp-chat-backend-impl';
import { AcpAgentLauncher } from './acp-agent-launcher';
import { AcpFileSystemHost } from './acp-file-system-host';
import { AcpTerminalHost } from './acp-terminal-host';
import { AcpTurnCheckpoints } from './acp-turn-checkpoints';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { IdeCompanionBackendImpl, WindowAgentCredentials, WindowServerRegistry, WindowModuleContribution } from '@theia-cli-companion/ai-cli-core/lib/node';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { until } from '@theia-cli-companion/ide-companion-server/lib/node/test';

const FAKE_AGENT = require.resolve('@theia-cli-companion/acp-client/lib/node/test/fake-acp-agent-main.js');

/**
 * The window's backend service, composed with Theia's real process services, and a scripted agent:
 * the workspace boundary, commands in real pseudo-terminals, and the failure reports.
 */
describe('AcpChatBackendImpl', function (): void {
    this.timeout(20000);
    let root: string;
    let outside: string;
    let backend: AcpChatBackendImpl;
    const reads: string[] = [];
    const written: string[] = [];
    /** What the window does when asked for the user's edit of a proposal: a test may act here, between the check and the write. */
    let onEditedContentFor: (request: acp.WriteTextFileRequest) => string | undefined;
    /** What the window's open editor of a file holds; undefined: no editor has it open. */
    let onOpenEditorText: (filePath: string) => string | undefined = () => undefined;
    const exits: string[] = [];
    const unsupported: string[] = [];
    const logged: string[] = [];
    const messages: string[] = [];
    const shown: { terminalId: string; processId: number; title: string }[] = [];
    let container: Container;
    let home: ReturnType<typeof useTemporaryHome>;

    beforeEach(() => {
        // The window's companion writes discovery files into HOME and TMPDIR: both are temporary here.
        home = useTemporaryHome();
        const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-backend-spec-')));
        root = path.join(base, 'workspace');
        outside = path.join(base, 'outside');
        fs.mkdirSync(root);
        fs.mkdirSync(outside);
        fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
        // A symlink inside the workspace that points out of it.
        fs.symlinkSync(outside, path.join(root, 'escape'));
        onEditedContentFor = () => undefined;
        onOpenEditorText = () => undefined;
        reads.length = written.length = exits.length = logged.length = messages.length = shown.length = 0;
        const log = async (message: unknown) => { logged.push(String(message)); };
        const logger = { debug: log, info: log, warn: log, error: log, log, isDebug: async () => false, child: () => logger } as unknown as ILogger;
        container = new Container();
        container.load(processBackendModule);
        container.bind(ILogger).toConstantValue(logger);
        container.bind(AcpTerminalHost).toSelf().inSingletonScope();
        container.bind(AcpFileSystemHost).toSelf().inSingletonScope();
        container.bind(AcpAgentLauncher).toSelf().inSingletonScope();
        // The core with one CLI flavour contributed (as IDE mode does), so that the agent's secret can be told from the CLI's.
        bindContributionProvider(container.bind.bind(container), WindowModuleContribution);
        container.bind(WindowModuleContribution).toConstantValue({ flavours: [GeminiCliFlavour] });
        container.bind(WindowServerRegistry).toSelf().inSingletonScope();
        container.bind(IdeCompanionBackendImpl).toSelf().inSingletonScope();
        container.bind(WindowAgentCredentials).toService(IdeCompanionBackendImpl);
        container.bind(EnvVariablesServer).toConstantValue({ getConfigDirUri: async () => FileUri.create(path.join(base, 'config')).toString() } as EnvVariablesServer);
        container.bind(AcpTurnCheckpoints).toSelf().inSingletonScope();
        container.bind(AcpChatBackendImpl).toSelf().inSingletonScope();
        backend = container.get(AcpChatBackendImpl);
        const client: AcpChatClient = {
            onSessionUpdate: (_chat, update, toolCall) => {
                sentToWindow += JSON.stringify(update).length + JSON.stringify(toolCall ?? {}).length;
                if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
                    messages.push(update.content.text);
                }
            },
            showTerminal: (_chat, terminal) => shown.push(terminal),
            askPermission: async (_chat, request: acp.RequestPermissionRequest) => ({
                outcome: 'selected', optionId: request.options.find(o => o.kind === 'allow_once')!.optionId
            }),
            openEditorText: async (_chat, filePath) => {
                reads.push(filePath);
                return onOpenEditorText(filePath);
            },
            editedContentFor: async (_chat, request) => onEditedContentFor(request),
            didWriteTextFile: async (_chat, filePath) => { written.push(filePath); },
            onAgentExit: (_chat, message) => exits.push(message),
            onUnsupportedRequest: (chat, method) => unsupported.push(`${chat}: ${method}`)
        };
        backend.setClient(client);
    });

    afterEach(async () => {
        backend.dispose();
        await container.get(IdeCompanionBackendImpl).detachWindow();
        await container.get(AcpTurnCheckpoints).settled();
        fs.rmSync(path.dirname(root), { recursive: true, force: true });
        home.restore();
    });

    let sentToWindow = 0;

    it('sends the window a few screens of a 50,000-line tool output, and keeps the whole text for it on demand', async () => {
        await start();
        sentToWindow = 0;
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'flood 50000' }])).to.deep.include({ ok: true });
        expect(sentToWindow, 'what went to the window').to.be.lessThan(200 * 1024);
        const whole = await backend.toolOutput('chat-1', 'flood-1');
        expect(whole?.split('\n')).to.have.length(50000);
        expect(whole?.split('\n')[49999]).to.equal('output line 50000');
        expect(await backend.toolOutput('chat-1', 'no-such-call')).to.equal(undefined);
    });

    it('tells the window of a request the agent made that the client does not serve; the turn ends as usual', async () => {
        await start();
        unsupported.length = 0;
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'unsupported' }])).to.deep.include({ ok: true, stopReason: 'end_turn' });
        expect(unsupported).to.deep.equal(['chat-1: x-future/ask']);
    });

    it('records what a turn changed, also files the agent wrote itself, and restores them to before the turn', async () => {
        fs.writeFileSync(path.join(root, 'a.txt'), 'a before\n');
        await start();
        await backend.prompt('chat-1', [{ type: 'text', text: `selfwrite ${path.join(root, 'a.txt')}=a\\nafter ${path.join(root, 'b.txt')}=b` }], 'turn-1');
        const checkpoint = await backend.endTurn('chat-1', 'turn-1');
        expect(checkpoint?.changes.map(change => [change.relativePath, change.kind])).to.deep.equal([['a.txt', 'modified'], ['b.txt', 'added']]);
        expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).to.equal('a\nafter');
        expect(await backend.turnFileContent('chat-1', 'turn-1', path.join(root, 'a.txt'), 'before')).to.equal('a before\n');
        expect(await backend.restoreTurn('chat-1', 'turn-1', { overwrite: [], skip: [], roots: [root] })).to.deep.include({ kind: 'restored', failed: [] });
        expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).to.equal('a before\n');
        expect(fs.existsSync(path.join(root, 'b.txt'))).to.equal(false);
        await backend.prompt('chat-1', [{ type: 'text', text: 'echo nothing changes' }], 'turn-2');
        expect(await backend.endTurn('chat-1', 'turn-2')).to.equal(undefined);
        // A turn the window never ended is recorded when the next one starts.
        await backend.prompt('chat-1', [{ type: 'text', text: `selfwrite ${path.join(root, 'c.txt')}=c` }], 'turn-3');
        await backend.prompt('chat-1', [{ type: 'text', text: 'echo next' }], 'turn-4');
        expect((await backend.turnCheckpoint('chat-1', 'turn-3'))?.changes.map(change => change.relativePath)).to.deep.equal(['c.txt']);
        // Restores write inside the window's folders now: a window without this folder restores nothing in it.
        const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-elsewhere-'));
        try {
            expect(await backend.restoreTurn('chat-1', 'turn-3', { overwrite: [], skip: [], roots: [elsewhere] })).to.deep.include({ kind: 'restored', restored: [] });
            expect(fs.existsSync(path.join(root, 'c.txt'))).to.equal(true);
        } finally {
            fs.rmSync(elsewhere, { recursive: true, force: true });
        }
        await expectRejected(backend.restoreTurn('chat-1', 'x'.repeat(201), { overwrite: [], skip: [], roots: [root] }));
        await expectRejected(backend.restoreTurn('chat-1', 'turn-1', { overwrite: [], skip: [], roots: [root], extra: 1 } as never));
        await expectRejected(backend.restoreTurn('chat-1', 'turn-1', { overwrite: [], skip: [] } as never));
        await expectRejected(backend.reapplyTurnFile('chat-1', 'turn-1', path.join(root, 'a.txt'), false, ['relative'] as never));
    });

    async function expectRejected(promise: Promise<unknown>): Promise<void> {
        const error = await promise.then(() => undefined, (rejection: Error) => rejection);
        expect(error, 'the call should have been refused').to.be.instanceOf(Error);
    }

    async function start(command = process.execPath): Promise<void> {
        const result = await backend.startSession({
            chatSessionId: 'chat-1', cwd: root, roots: [root],
            agent: { name: 'Fake', command, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl') } }
        });
        expect(result.ok, JSON.stringify(result)).to.equal(true);
    }

    it('serves reads through the window, and writes inside the workspace itself, with the user\'s edits, telling the window', async () => {
        await start();
        const target = path.join(root, 'new.txt');
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `write ${target} hello there` }]);
        expect(result).to.deep.include({ ok: true, stopReason: 'end_turn' });
        expect(reads).to.deep.equal([target]);
        expect(fs.readFileSync(target, 'utf8')).to.equal('hello there\n');
        expect(written).to.deep.equal([target]);
        onEditedContentFor = request => request.content === 'again\n' ? 'again, as the user edited it\n' : undefined;
        expect(await backend.prompt('chat-1', [{ type: 'text', text: `write ${target} again` }])).to.deep.include({ ok: true });
        expect(fs.readFileSync(target, 'utf8')).to.equal('again, as the user edited it\n');
    });

    it('puts the reviewed text over an agent\'s own write only when the file holds exactly its proposal, inside the workspace only', async () => {
        await start();
        const target = path.join(root, 'self-written.txt');
        fs.writeFileSync(target, 'the agent\'s text\n');
        expect(await backend.readForReview('chat-1', target)).to.equal('the agent\'s text\n');
        expect(await backend.readForReview('chat-1', path.join(root, 'missing.txt'))).to.equal(undefined);
        expect(await backend.replaceWritten('chat-1', target, 'something else\n', 'reviewed\n'), 'not the proposal').to.equal(false);
        expect(fs.readFileSync(target, 'utf8')).to.equal('the agent\'s text\n');
        expect(await backend.replaceWritten('chat-1', target, 'the agent\'s text\n', 'reviewed\n')).to.equal(true);
        expect(fs.readFileSync(target, 'utf8')).to.equal('reviewed\n');
        expect(written).to.include(target);
        const secret = path.join(outside, 'secret.txt');
        fs.writeFileSync(secret, 'outside\n');
        for (const call of [() => backend.readForReview('chat-1', secret), () => backend.replaceWritten('chat-1', secret, 'outside\n', 'overwritten\n'),
            () => backend.replaceWritten('chat-1', target, 42 as unknown as string, 'x')]) {
            await call().then(() => expect.fail('not refused'), error => expect(String(error)).to.match(/outside the workspace folders|Expected string/));
        }
        expect(fs.readFileSync(secret, 'utf8')).to.equal('outside\n');
    });

    it('tells Follow the Agent where a reported path lands: a link up out of the repository or a dangling one is outside', async () => {
        await start();
        fs.mkdirSync(path.join(root, 'src'));
        fs.writeFileSync(path.join(root, 'src', 'a.md'), 'a\n');
        // A repository's `up -> ../../..` (up to /): the secret, spelled as a path inside the workspace.
        fs.symlinkSync(path.relative(root, '/'), path.join(root, 'up'));
        fs.symlinkSync(path.join(outside, 'not-yet.md'), path.join(root, 'dangling.md'));
        fs.symlinkSync('src', path.join(root, 'docs'));
        const landing = (filePath: string, chat = 'chat-1') => backend.landingInWorkspace(chat, filePath);
        expect(await landing(path.join(root, 'up', outside, 'secret.txt'))).to.equal(undefined);
        expect(await landing(path.join(root, 'escape', 'secret.txt'))).to.equal(undefined);
        expect(await landing(path.join(root, 'dangling.md'))).to.equal(undefined);
        expect(await landing('src/a.md'), 'a relative path').to.equal(undefined);
        expect(await landing(path.join(root, 'src', 'a.md'), 'chat-2'), 'a chat the backend does not know').to.equal(undefined);
        expect(await landing(path.join(root, 'docs', 'a.md')), 'a link that stays inside').to.equal(path.join(root, 'src', 'a.md'));
        expect(await landing(path.join(root, 'new.md')), 'a file not written yet').to.equal(path.join(root, 'new.md'));
        await expectRejected(landing(42 as unknown as string));
    });

    it('reads an open editor\'s text (unsaved edits included), else the disk, line ranges as asked', async () => {
        await start();
        const file = path.join(root, 'lines.txt');
        fs.writeFileSync(file, 'one\ntwo\nthree\n');
        const said = async (text: string) => {
            messages.length = 0;
            expect(await backend.prompt('chat-1', [{ type: 'text', text }])).to.deep.include({ ok: true });
            return JSON.parse(messages.join(''));
        };
        expect(await said(`read ${file}`)).to.equal('one\ntwo\nthree\n');
        expect(await said(`read ${file} 2 1`)).to.equal('two');
        expect(await said(`read ${path.join(root, 'missing.txt')}`)).to.equal('');
        onOpenEditorText = filePath => filePath === file ? 'one\nedited, not saved\n' : undefined;
        expect(await said(`read ${file} 2 1`)).to.equal('edited, not saved');
    });

    it('a link made between the check and the read does not hand the agent another file', async () => {
        await start();
        const target = path.join(root, 'notes.md');
        const secret = path.join(outside, 'secret.txt');
        fs.writeFileSync(secret, 'the secret');
        // The window is asked for an open editor after the backend checked the path: the link appears then.
        onOpenEditorText = () => {
            fs.symlinkSync(secret, target);
            return undefined;
        };
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `read ${target}` }]);
        expect(result.ok).to.equal(false);
        expect(!result.ok && result.message).to.match(/symbolic link|outside the workspace folders/);
        expect(messages.join('')).to.not.contain('the secret');
        expect(logged.some(line => line.includes('refused the agent\'s read'))).to.equal(true, logged.join('\n'));
    });

    it('reads neither a named pipe (which would never answer) nor more than it may hold', async () => {
        await start();
        const fifo = path.join(root, 'pipe');
        execFileSync('mkfifo', [fifo]);
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `read ${fifo}` }]);
        expect(!result.ok && result.message).to.contain(`${fifo} is not a regular file`);
        const big = path.join(root, 'big.bin');
        fs.writeFileSync(big, '');
        fs.truncateSync(big, 16 * 1024 * 1024 + 1);
        const tooBig = await backend.prompt('chat-1', [{ type: 'text', text: `read ${big}` }]);
        expect(!tooBig.ok && tooBig.message).to.contain('more than the 16777216 an agent may read at once');
    });

    it('refuses a write through a dangling link to outside the workspace, creating nothing there', async () => {
        await start();
        const notes = path.join(root, 'notes.md');
        fs.symlinkSync('../outside/authorized_keys', notes);
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `put ${notes} ssh-ed25519 AAAA attacker` }]);
        expect(result.ok).to.equal(false);
        expect(!result.ok && result.message).to.contain(`${notes} is outside the workspace folders (${root}) (it leads to ${path.join(outside, 'authorized_keys')})`);
        expect(fs.existsSync(path.join(outside, 'authorized_keys')), 'nothing created outside').to.equal(false);
        expect(written).to.deep.equal([]);
    });

    it('a link made between the check and the write does not redirect the write', async () => {
        await start();
        const target = path.join(root, 'new.txt');
        const planted = path.join(outside, 'planted.txt');
        // The window is asked for the user's edits after the backend checked the path: the link appears then.
        onEditedContentFor = () => {
            fs.symlinkSync(planted, target);
            return undefined;
        };
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `write ${target} redirected` }]);
        expect(reads).to.deep.equal([target]);
        expect(result.ok).to.equal(false);
        expect(!result.ok && result.message).to.contain(`${target} is outside the workspace folders`);
        expect(fs.existsSync(planted), 'nothing created outside').to.equal(false);
        expect(written).to.deep.equal([]);
    });

    it('hands the agent the window\'s companion server with a secret of its own, revoked when the chat closes', async () => {
        await container.get(IdeCompanionBackendImpl).attachWindow({ rootUris: [FileUri.create(root).toString()], flavours: ['gemini'] });
        await start();
        const created = fs.readFileSync(path.join(path.dirname(root), 'agent.jsonl'), 'utf8').trim().split('\n')
            .map(line => JSON.parse(line)).find(entry => entry.method === 'session/new');
        const [server] = created.params.mcpServers;
        const window = container.get(IdeCompanionBackendImpl).currentWindow!;
        expect(server).to.deep.include({ type: 'http', name: 'theia', url: `http://127.0.0.1:${window.server.port}/mcp` });
        const authorization = server.headers.find((header: { name: string }) => header.name === 'Authorization').value as string;
        expect(authorization).to.match(/^Bearer \S{43}$/);
        expect(authorization).to.not.contain(window.endpointFor('gemini').authToken);
        expect(logged.join('\n')).to.not.contain(authorization.slice(7));
        const initialize = (auth: string) => fetch(server.url, {
            method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
            body: JSON.stringify({
                jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1' } }
            })
        });
        expect((await initialize(authorization)).status).to.equal(200);
        await backend.closeSession('chat-1');
        expect((await initialize(authorization)).status).to.equal(401);
    });

    it('reopens a stored session with session/load, and starts a new one, saying why, when the agent cannot', async () => {
        const agent = { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl') } };
        const reopened = await backend.startSession({ chatSessionId: 'chat-1', cwd: root, roots: [root], agent, loadSessionId: 'stored-7' });
        expect(reopened).to.deep.include({ ok: true });
        expect(reopened.ok && reopened.session).to.deep.include({ sessionId: 'stored-7', loaded: true });
        const lost = await backend.startSession({ chatSessionId: 'chat-2', cwd: root, roots: [root], agent, loadSessionId: 'missing-3' });
        expect(lost.ok && lost.session).to.deep.include({ loaded: false, loadFailure: 'Internal error: Invalid session identifier "missing-3".' });
        expect(lost.ok && lost.session.sessionId).to.match(/^fake-session-\d+$/);
        expect(await backend.prompt('chat-2', [{ type: 'text', text: 'echo works' }])).to.deep.include({ ok: true });
        // Asked again while its agent runs, a chat keeps its session: no second agent, no second session.
        const again = await backend.startSession({ chatSessionId: 'chat-2', cwd: root, roots: [root], agent, loadSessionId: 'missing-3' });
        expect(again.ok && again.session.sessionId).to.equal(lost.ok && lost.session.sessionId);
        const calls = fs.readFileSync(path.join(path.dirname(root), 'agent.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line).method);
        expect(calls.filter(method => method === 'initialize')).to.have.length(2);
    });

    it('delivers a message to the agent it names: a chat that changes agent starts that agent\'s session, and resumes the first on the way back', async () => {
        const logOf = (name: string) => path.join(path.dirname(root), `${name}.jsonl`);
        const definition = (name: string) => ({ name, command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: logOf(name) } });
        const calls = (name: string) => fs.existsSync(logOf(name)) ? fs.readFileSync(logOf(name), 'utf8').trim().split('\n').map(line => JSON.parse(line)) : [];
        const prompts = (name: string) => calls(name).filter(call => call.method === 'session/prompt').map(call => call.params.prompt[0].text);
        const startWith = (name: string) => backend.startSession({ chatSessionId: 'chat-1', cwd: root, roots: [root], agent: definition(name) });
        const alpha = await startWith('Alpha');
        expect(alpha.ok && alpha.session).to.not.have.any.keys('previousAgent', 'resumed');
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'echo for alpha' }], 'turn-1', 'Alpha')).to.deep.include({ ok: true });
        await backend.setMode('chat-1', 'yolo');
        // A turn Alpha still runs when the chat changes to Beta ends: its output would go nowhere.
        const slow = backend.prompt('chat-1', [{ type: 'text', text: 'slow' }], 'turn-2', 'Alpha');
        await until(() => messages.includes('Working on it'));
        const beta = await startWith('Beta');
        expect(beta.ok && beta.session).to.deep.include({ previousAgent: 'Alpha', loaded: false });
        expect(beta.ok && beta.session.resumed).to.equal(undefined);
        expect(await slow).to.deep.include({ ok: true, stopReason: 'cancelled' });
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'echo for beta' }], 'turn-3', 'Beta')).to.deep.include({ ok: true });
        expect(prompts('Alpha')).to.deep.equal(['echo for alpha', 'slow']);
        expect(prompts('Beta')).to.deep.equal(['echo for beta']);
        // A message naming the agent the chat does not talk to now is refused, never delivered to the other.
        const misrouted = await backend.prompt('chat-1', [{ type: 'text', text: 'echo misrouted' }], undefined, 'Alpha');
        expect(misrouted).to.deep.equal({ ok: false, message: 'This chat now talks to Beta, not Alpha; send the message again to change to Alpha' });
        // Back to Alpha: its session of this chat goes on, in the same process.
        const back = await startWith('Alpha');
        expect(back.ok && back.session).to.deep.include({ sessionId: alpha.ok && alpha.session.sessionId, previousAgent: 'Beta', resumed: true });
        expect(back.ok && back.session.modes?.currentModeId, 'the resumed session as it is now').to.equal('yolo');
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'echo again alpha' }], 'turn-4', 'Alpha')).to.deep.include({ ok: true });
        expect(prompts('Alpha')).to.deep.equal(['echo for alpha', 'slow', 'echo again alpha']);
        expect(prompts('Beta')).to.deep.equal(['echo for beta']);
        expect(calls('Alpha').filter(call => call.method === 'initialize')).to.have.length(1);
        expect(messages.filter(text => text.startsWith('echo'))).to.deep.equal(['echo for alpha', 'echo for beta', 'echo again alpha']);
        // One process per (chat, agent): both run until the chat closes, which stops both.
        const running = (name: string) => fs.readdirSync('/proc').filter(pid => /^\d+$/.test(pid)).some(pid => {
            try {
                return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`FAKE_AGENT_LOG=${logOf(name)}`);
            } catch {
                return false;
            }
        });
        expect([running('Alpha'), running('Beta')]).to.deep.equal([true, true]);
        await backend.closeSession('chat-1');
        await until(() => !running('Alpha') && !running('Beta'));
    });

    it('refuses paths outside the workspace folders, through symlinks too, and keeps serving', async () => {
        await start();
        for (const target of [path.join(outside, 'secret.txt'), path.join(root, 'escape', 'secret.txt'), path.join(root, '..', 'outside', 'secret.txt')]) {
            const result = await backend.prompt('chat-1', [{ type: 'text', text: `read ${target}` }]);
            expect(result.ok, target).to.equal(false);
            expect(!result.ok && result.message).to.match(/outside the workspace folders/);
        }
        expect(reads).to.deep.equal([]);
        expect(logged.some(line => line.includes('refused the agent access'))).to.equal(true);
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'echo still serving' }])).to.deep.include({ ok: true });
    });

    it('runs the agent\'s command in a real pseudo-terminal the window can attach to, with the output limit and exit code', async () => {
        await start();
        const result = await backend.prompt('chat-1', [{ type: 'text', text: 'terminal printf "%080d" 7; printf "\\nend\\n"; exit 4' }]);
        expect(result).to.deep.include({ ok: true, stopReason: 'end_turn' });
        const reported = JSON.parse(messages.join(''));
        expect(reported.exit).to.deep.equal({ exitCode: 4, signal: null });
        expect(reported.output.truncated).to.equal(true);
        expect(reported.output.output).to.match(/^0*7\nend\n$/);
        expect(Buffer.byteLength(reported.output.output)).to.be.at.most(64);
        expect(shown).to.have.length(1);
        expect(shown[0].title).to.match(/^Fake: sh -c printf/);
        // The process is still known to Theia, so a terminal widget attaching late shows its output.
        expect(container.get(ProcessManager).get(shown[0].processId)).to.not.equal(undefined);
    });

    it('refuses a command outside the workspace folders and an unknown terminal', async () => {
        const host = container.get(AcpTerminalHost);
        const outsideRun = await host.create('chat-1', { sessionId: 's', command: 'true', cwd: outside }, root, [root]).then(() => undefined, (error: Error) => error.message);
        expect(outsideRun).to.equal(`The command's working folder ${outside} is outside the workspace folders (${root})`);
        expect(() => host.output('chat-1', { sessionId: 's', terminalId: 'acp-terminal-999' })).to.throw(/Unknown terminal acp-terminal-999/);
        const missing = await host.create('chat-1', { sessionId: 's', command: 'no-such-command-here' }, root, [root]).then(() => undefined, (error: Error) => error.message);
        expect(missing).to.match(/Could not run no-such-command-here/);
    });

    it('kills a running command on request and keeps its output readable until released', async () => {
        const host = container.get(AcpTerminalHost);
        const { terminalId } = await host.create('chat-1', { sessionId: 's', command: 'sh', args: ['-c', 'echo started; sleep 30'] }, root, [root]);
        while (!host.output('chat-1', { sessionId: 's', terminalId }).output.includes('started')) {
            await new Promise(resolve => setTimeout(resolve, 20));
        }
        host.kill('chat-1', { sessionId: 's', terminalId });
        const exit = await host.waitForExit('chat-1', { sessionId: 's', terminalId }, new AbortController().signal);
        expect(exit.signal ?? exit.exitCode).to.not.equal(null);
        expect(host.output('chat-1', { sessionId: 's', terminalId }).output).to.equal('started\n');
        host.release('chat-1', { sessionId: 's', terminalId });
        expect(() => host.output('chat-1', { sessionId: 's', terminalId })).to.throw(/Unknown terminal/);
    });

    it('keeps the last 1 MiB of a command\'s output when the agent gives no limit, and says it was truncated', async () => {
        const host = container.get(AcpTerminalHost);
        // Paced: Theia's terminal ring buffer (1 MiB) drops what a reader has not taken yet when one burst
        // outruns it, and this test is about our cap, not about that.
        const paced = 'for i in $(seq 130); do head -c 10000 /dev/zero | tr "\\0" x; sleep 0.01; done; echo; echo end';
        const { terminalId } = await host.create('chat-1', { sessionId: 's', command: 'sh', args: ['-c', paced] }, root, [root]);
        await until(() => host.output('chat-1', { sessionId: 's', terminalId }).output.endsWith('\nend\n'), 'the whole output', 15000).catch(error => {
            const { output, exitStatus } = host.output('chat-1', { sessionId: 's', terminalId });
            throw new Error(`${error.message}: ${output.length} characters, ending ${JSON.stringify(output.slice(-40))}, exit ${JSON.stringify(exitStatus)}`);
        });
        const { output, truncated } = host.output('chat-1', { sessionId: 's', terminalId });
        expect(truncated).to.equal(true);
        expect(Buffer.byteLength(output)).to.equal(1024 * 1024);
        expect(output).to.match(/^x+\nend\n$/);
    });

    it('keeps each chat\'s terminals to its own agent: another chat\'s agent cannot read, stop or release them', async () => {
        await start();
        const agent = { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl') } };
        expect(await backend.startSession({ chatSessionId: 'chat-2', cwd: root, roots: [root], agent })).to.deep.include({ ok: true });
        const said = async (chat: string, text: string) => {
            messages.length = 0;
            expect(await backend.prompt(chat, [{ type: 'text', text }])).to.deep.include({ ok: true });
            return messages.join('');
        };
        const terminalId = await said('chat-1', 'spawn echo started; sleep 30');
        expect(terminalId).to.match(/^acp-terminal-\d+$/);
        // `wait` last: on a foreign terminal that is allowed, it would wait for the whole sleep.
        for (const operation of ['output', 'kill', 'release', 'wait']) {
            expect(JSON.parse(await said('chat-2', `poke ${operation} ${terminalId}`)), operation).to.have.property('error').that.is.a('string');
        }
        const own = JSON.parse(await said('chat-1', `poke output ${terminalId}`));
        expect(own.answer).to.deep.include({ exitStatus: null, truncated: false });
        const host = container.get(AcpTerminalHost);
        expect(() => host.output('chat-2', { sessionId: 's', terminalId })).to.throw(`Unknown terminal ${terminalId}`);
        // A chat that closes takes its commands with it.
        await backend.closeSession('chat-1');
        expect(() => host.output('chat-1', { sessionId: 's', terminalId })).to.throw(/Unknown terminal/);
    });

    it('resolves the workspace folders\' symlinks before checking paths against them', async () => {
        const linkedRoot = path.join(path.dirname(root), 'linked-workspace');
        fs.symlinkSync(root, linkedRoot);
        const result = await backend.startSession({
            chatSessionId: 'chat-4', cwd: linkedRoot, roots: [linkedRoot],
            agent: { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl') } }
        });
        expect(result.ok).to.equal(true);
        expect(await backend.prompt('chat-4', [{ type: 'text', text: `read ${path.join(linkedRoot, 'file.txt')}` }])).to.deep.include({ ok: true });
        expect(reads).to.deep.equal([path.join(linkedRoot, 'file.txt')]);
    });

    it('refuses a working folder that is not a workspace folder', async () => {
        const result = await backend.startSession({
            chatSessionId: 'chat-2', cwd: outside, roots: [root], agent: { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: {} }
        });
        expect(fs.existsSync(path.join(path.dirname(root), 'agent.jsonl')), 'no agent was started').to.equal(false);
        expect(result).to.deep.equal({ ok: false, failure: { kind: 'failed', message: `The agent's folder must be one of the workspace folders, got ${outside}` } });
    });

    it('refuses snapshot patterns with pathspec magic before starting an agent', async () => {
        const result = await backend.startSession({
            chatSessionId: 'chat-5', cwd: root, roots: [root], agent: { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: {} }, snapshotInclude: [':(top)secrets']
        });
        expect(fs.existsSync(path.join(path.dirname(root), 'agent.jsonl')), 'no agent was started').to.equal(false);
        expect(result.ok).to.equal(false);
        expect(!result.ok && result.failure.kind === 'failed' && result.failure.message).to.match(/^Invalid snapshot patterns: .*no pathspec magic/);
    });

    it('reports an agent that is not installed with its install command', async () => {
        const result = await backend.startSession({
            chatSessionId: 'chat-3', cwd: root, roots: [root], agent: { name: 'Nope', command: 'no-such-acp-agent-here', args: [], env: {}, installCommand: 'npm install -g nope' }
        });
        expect(result).to.deep.equal({ ok: false, failure: { kind: 'not-installed', command: 'no-such-acp-agent-here', installCommand: 'npm install -g nope' } });
    });

    it('tells the window when the agent dies, and starts a new one for the next session', async () => {
        await start();
        const crashed = await backend.prompt('chat-1', [{ type: 'text', text: 'crash' }]);
        expect(crashed.ok).to.equal(false);
        expect(!crashed.ok && crashed.message).to.match(/exited with code 3/);
        expect(exits[0]).to.match(/exited with code 3; its last output:\nfatal: simulated crash/);
        await start();
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'echo back' }])).to.deep.include({ ok: true, stopReason: 'end_turn' });
    });
});
