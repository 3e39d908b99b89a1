import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Container } from '@theia/core/shared/inversify';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { AgentWorkRegistry, IdeCompanionBackendImpl } from '@theia-cli-companion/ai-cli-core/lib/node';
import { until } from '@theia-cli-companion/ide-companion-server/lib/node/test';
import { AcpChatBackendImpl } from './acp-chat-backend-impl';
import { AcpBackendTestbed, FAKE_AGENT, expectRejected } from './test/acp-backend-testbed';

/**
 * The window's backend service, composed with Theia's real process services, and a scripted agent:
 * sessions (started, reopened, changed between agents, and their failures), turns and their checkpoints,
 * and what reaches the window. The agent's files and terminals: acp-chat-backend-workspace.spec.ts.
 */
describe('AcpChatBackendImpl', function (): void {
    this.timeout(20000);
    const bed = new AcpBackendTestbed();
    const { exits, unsupported, logged, messages } = bed;
    let root: string;
    let outside: string;
    let backend: AcpChatBackendImpl;
    let container: Container;

    beforeEach(() => {
        bed.setUp();
        ({ root, outside, backend, container } = bed);
    });

    afterEach(() => bed.tearDown());

    const start = (command?: string) => bed.start(command);

    it('sends the window a few screens of a 50,000-line tool output, and keeps the whole text for it on demand', async () => {
        await start();
        bed.sentToWindow = 0;
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'flood 50000' }])).to.deep.include({ ok: true });
        expect(bed.sentToWindow, 'what went to the window').to.be.lessThan(200 * 1024);
        const whole = await backend.toolOutput('chat-1', 'flood-1');
        expect(whole?.split('\n')).to.have.length(50000);
        expect(whole?.split('\n')[49999]).to.equal('output line 50000');
        expect(await backend.toolOutput('chat-1', 'no-such-call')).to.equal(undefined);
    });

    it('counts a turn as agent work while it runs, not while it waits for the user\'s permission or answer (the workspace may sleep then)', async () => {
        await start();
        const work = container.get(AgentWorkRegistry);
        const seen: string[] = [];
        const listener = work.onDidChange(() => seen.push(work.current().join(', ') || 'idle'));
        bed.onAskPermission = async request => {
            seen.push(`permission asked: ${work.current().join(', ') || 'idle'}`);
            return { outcome: 'selected', optionId: request.options.find(option => option.kind === 'allow_once')!.optionId };
        };
        bed.onAskQuestion = async () => {
            seen.push(`question asked: ${work.current().join(', ') || 'idle'}`);
            return { action: 'decline' };
        };
        await backend.prompt('chat-1', [{ type: 'text', text: `write ${path.join(root, 'w.txt')} hello` }]);
        await backend.prompt('chat-1', [{ type: 'text', text: 'question text' }]);
        listener.dispose();
        const turn = 'a chat turn with Fake';
        expect(seen).to.deep.equal([turn, 'idle', 'permission asked: idle', turn, 'idle', turn, 'idle', 'question asked: idle', turn, 'idle']);
    });

    it('tells the window of a request the agent made that the client does not serve; the turn ends as usual', async () => {
        await start();
        unsupported.length = 0;
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'unsupported' }])).to.deep.include({ ok: true, stopReason: 'end_turn' });
        expect(unsupported).to.deep.equal(['chat-1: x-future/ask', 'chat-1: _fake/hint']);
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

    it('reopens a stored session with session/load (an agent that cannot resume), and starts a new one, saying why, when the agent cannot', async () => {
        const agent = {
            name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl'), FAKE_AGENT_NO_SESSION_STORE: '1' }
        };
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

    it('lists the agent\'s sessions of a folder with an agent of its own, reopens one with session/resume, and deletes it with its chat', async () => {
        const agent = { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl') } };
        const first = await backend.startSession({ chatSessionId: 'chat-1', cwd: root, roots: [root], agent });
        const sessionId = first.ok ? first.session.sessionId : '';
        await backend.closeSession('chat-1').then(end => expect(end, 'a deleted chat deletes its session').to.equal('deleted'));
        const calls = fs.readFileSync(path.join(path.dirname(root), 'agent.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line));
        expect(calls.filter(call => call.method === 'session/delete').map(call => call.params.sessionId)).to.deep.equal([sessionId]);
        const second = await backend.startSession({ chatSessionId: 'chat-2', cwd: root, roots: [root], agent });
        const listed = await backend.listAgentSessions({ agent, cwd: root, roots: [root] });
        expect(listed.supported).to.equal(true);
        expect(listed.sessions.map(session => session.sessionId), 'only the chat not deleted').to.deep.equal([second.ok ? second.session.sessionId : '?']);
        expect(listed.sessions[0]).to.include({ cwd: root }).and.to.have.property('title').that.is.a('string');
        await expectRejected(backend.listAgentSessions({ agent, cwd: outside, roots: [root] }));

        const reopened = await backend.startSession({ chatSessionId: 'chat-3', cwd: root, roots: [root], agent, loadSessionId: listed.sessions[0].sessionId });
        expect(reopened.ok && reopened.session).to.deep.include({ sessionId: listed.sessions[0].sessionId, loaded: true });
        expect(logged.some(line => line.includes(`session ${listed.sessions[0].sessionId} resumed`)), logged.join('\n')).to.equal(true);
        // A session the chat took from the agent's list is the agent's: deleting the chat only closes it.
        expect(await backend.closeSession('chat-3', false)).to.equal('closed');
        expect((await backend.listAgentSessions({ agent, cwd: root, roots: [root] })).sessions.map(session => session.sessionId)).to.include(listed.sessions[0].sessionId);
        const noStore = { ...agent, env: { ...agent.env, FAKE_AGENT_NO_SESSION_STORE: '1' } };
        expect(await backend.listAgentSessions({ agent: noStore, cwd: root, roots: [root] })).to.deep.equal({ supported: false, sessions: [] });
        await backend.startSession({ chatSessionId: 'chat-4', cwd: root, roots: [root], agent: noStore });
        expect(await backend.closeSession('chat-4'), 'an agent that can neither delete nor close keeps the session').to.equal('kept');
    });

    it('tells the window the agent\'s config options, sets one it sends (checked: an id and a value of the agent\'s own), and answers the new list', async () => {
        const started = await backend.startSession({ chatSessionId: 'chat-1', cwd: root, roots: [root], agent: { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: {
            FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl')
        } } });
        expect(started.ok && started.session.configOptions?.map(option => option.id)).to.deep.equal(['mode', 'model', 'effort', 'fast']);
        const after = await backend.setConfigOption('chat-1', 'effort', 'high');
        expect(after.find(option => option.id === 'effort')?.currentValue).to.equal('high');
        const refused = (configId: unknown, value: unknown) => backend.setConfigOption('chat-1', configId as string, value as string).then(() => '', error => String(error));
        expect(await refused('', 'high')).to.match(/Invalid config option: configId/);
        expect(await refused('effort', { value: 'high' })).to.match(/Invalid config option: value/);
        expect(await refused('effort', 'extreme')).to.match(/"extreme" is not a value of the setting Effort \(effort\)/);
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
