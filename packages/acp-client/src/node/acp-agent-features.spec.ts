import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { AcpAgent, AcpClientServices, AcpSession } from './acp-agent';

const FAKE_AGENT = path.join(__dirname, 'test', 'fake-acp-agent-main.js');

interface Recorded { kind: string; method: string; params: Record<string, unknown> }

/** What a current ACP agent offers beside turns, against the scripted agent: its settings, its questions, its stored sessions. */
describe('AcpAgent: settings, questions and stored sessions', function (): void {
    this.timeout(20000);
    let dir: string;
    let logFile: string;
    let agent: AcpAgent | undefined;
    let updates: acp.SessionUpdate[];
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-agent-features-spec-'));
        logFile = path.join(dir, 'agent-log.jsonl');
        updates = [];
    });

    afterEach(async () => {
        await agent?.dispose();
        agent = undefined;
        fs.rmSync(dir, { recursive: true, force: true });
    });

    const services = (): AcpClientServices => ({
        onUpdate: (_session, update) => updates.push(update),
        askPermission: async () => ({ outcome: 'cancelled' })
    });

    function start(env: NodeJS.ProcessEnv = {}, extra: Partial<AcpClientServices> = {}): AcpAgent {
        const launch = { command: process.execPath, args: [FAKE_AGENT], cwd: dir, env: { PATH: process.env.PATH, FAKE_AGENT_LOG: logFile, ...env } };
        agent = new AcpAgent(launch, { ...services(), ...extra }, logger);
        return agent;
    }

    async function session(env?: NodeJS.ProcessEnv): Promise<AcpSession> {
        const started = start(env);
        await started.initialize({ name: 'spec', version: '0' });
        return started.newSession({ cwd: dir, mcpServers: [] });
    }

    const recorded = (): Recorded[] => fs.readFileSync(logFile, 'utf8').trim().split('\n').map(line => JSON.parse(line));
    const text = (kind: string) => updates.flatMap(update => {
        const content = update.sessionUpdate === kind && 'content' in update ? update.content : undefined;
        return content && !Array.isArray(content) && content.type === 'text' ? [content.text] : [];
    }).join('');

    it('keeps the agent\'s config options: set one by its id (select, grouped select, boolean), and every list the agent sends replaces the last', async () => {
        const s = await session();
        expect(s.configOptions.map(option => `${option.id}=${option.currentValue}`)).to.deep.equal(['mode=default', 'model=fake-pro', 'effort=medium', 'fast=false']);
        await s.setConfigOption('model', 'fake-flash');
        await s.setConfigOption('fast', true);
        expect(recorded().filter(r => r.method === 'session/set_config_option').map(r => r.params)).to.deep.equal([
            { sessionId: s.sessionId, configId: 'model', value: 'fake-flash' },
            { sessionId: s.sessionId, configId: 'fast', type: 'boolean', value: true }
        ]);
        await s.prompt([{ type: 'text', text: 'configure effort high' }]);
        expect(s.configOptions.map(option => `${option.id}=${option.currentValue}`)).to.deep.equal(['mode=default', 'model=fake-flash', 'effort=high', 'fast=true']);
    });

    it('refuses a config option the agent does not offer, or a value it does not list, before anything is sent', async () => {
        const s = await session();
        const refusal = (configId: string, value: string | boolean) => s.setConfigOption(configId, value).then(() => '', error => String(error));
        expect(await refusal('colour', 'blue')).to.match(/offers no setting "colour" \(it offers: mode, model, effort, fast\)/);
        expect(await refusal('model', 'fake-ultra')).to.match(/"fake-ultra" is not a value of the setting Model \(model\)/);
        expect(await refusal('fast', 'yes')).to.match(/"yes" is not a value of the setting Fast answers \(fast\)/);
        expect(await refusal('mode', true)).to.match(/true is not a value of the setting Mode \(mode\)/);
        expect(recorded().filter(r => r.method === 'session/set_config_option')).to.deep.equal([]);
    });

    it('an agent with only the older modes and models lists no config options, and its modes still switch', async () => {
        const started = start({ FAKE_AGENT_LEGACY_SETTINGS: '1' });
        await started.initialize({ name: 'spec', version: '0' });
        const s = await started.newSession({ cwd: dir, mcpServers: [] });
        expect(s.configOptions).to.deep.equal([]);
        await s.setMode('yolo');
        expect(s.currentModeId).to.equal('yolo');
    });

    it('advertises questions (form and URL) only with a handler for them, and hands the agent\'s question to it with its session', async () => {
        const plain = await session();
        expect(recorded()[0].params.clientCapabilities).to.not.have.property('elicitation');
        await plain.agent.dispose();
        fs.rmSync(logFile);
        const asked: { session?: string; params: acp.CreateElicitationRequest }[] = [];
        const asking = start({}, {
            askQuestion: async (questionSession, params) => {
                asked.push({ session: questionSession?.sessionId, params });
                return { action: 'accept', content: { colour: 'blue', count: 2 } };
            }
        });
        await asking.initialize({ name: 'spec', version: '0' });
        expect(recorded()[0].params.clientCapabilities).to.deep.include({ elicitation: { form: {}, url: {} } });
        const s = await asking.newSession({ cwd: dir, mcpServers: [] });
        await s.prompt([{ type: 'text', text: 'question' }]);
        expect(asked.map(question => [question.session, question.params.mode, question.params.message])).to.deep.equal([[s.sessionId, 'form', 'Which colour, and how many?']]);
        expect(text('agent_message_chunk')).to.equal('answer: {"action":"accept","content":{"colour":"blue","count":2}}');
    });

    it('asks for a subagent\'s own messages only when the IDE nests them under their tool call', async () => {
        const plain = await session();
        expect(recorded()[0].params.clientCapabilities).to.not.have.property('_meta');
        await plain.agent.dispose();
        fs.rmSync(logFile);
        const nesting = start({}, { showsSubagents: true });
        await nesting.initialize({ name: 'spec', version: '0' });
        expect((recorded()[0].params as acp.InitializeRequest).clientCapabilities?._meta).to.deep.equal({ 'subagent-transcript': true });
    });

    it('lists the agent\'s stored sessions page by page, and after a restart resumes one (no replay), closes and deletes it', async () => {
        const first = start({ FAKE_AGENT_PAGE_SIZE: '2' });
        await first.initialize({ name: 'spec', version: '0' });
        for (let i = 0; i < 3; i++) {
            await first.newSession({ cwd: dir, mcpServers: [] });
        }
        await first.dispose();
        const restarted = start({ FAKE_AGENT_PAGE_SIZE: '2' });
        await restarted.initialize({ name: 'spec', version: '0' });
        const page1 = await restarted.listSessions({ cwd: dir });
        const page2 = await restarted.listSessions({ cwd: dir, cursor: page1.nextCursor });
        expect([...page1.sessions, ...page2.sessions].map(listed => listed.sessionId)).to.deep.equal(['fake-session-1', 'fake-session-2', 'fake-session-3']);
        expect(page2.nextCursor).to.equal(undefined);
        expect(page1.sessions[0]).to.include({ cwd: dir, title: `Session fake-session-1 in ${dir}` });
        const resumed = await restarted.resumeSession({ sessionId: 'fake-session-2', cwd: dir, mcpServers: [] });
        expect(resumed.configOptions.map(option => option.id)).to.deep.equal(['mode', 'model', 'effort', 'fast']);
        expect(text('user_message_chunk'), 'resume replays nothing').to.equal('');
        expect(await resumed.prompt([{ type: 'text', text: 'echo again' }])).to.include({ stopReason: 'end_turn' });
        await restarted.closeSession('fake-session-2');
        await restarted.deleteSession('fake-session-2');
        expect((await restarted.listSessions({ cwd: dir })).sessions.map(listed => listed.sessionId)).to.deep.equal(['fake-session-1', 'fake-session-3']);
        expect(recorded().map(r => r.method)).to.include.members(['session/list', 'session/resume', 'session/close', 'session/delete']);
    });

    it('refuses session/list, resume, close and delete to an agent that does not offer them, saying which', async () => {
        const started = start({ FAKE_AGENT_NO_SESSION_STORE: '1' });
        await started.initialize({ name: 'spec', version: '0' });
        const refusal = (call: Promise<unknown>) => call.then(() => '', error => String(error));
        expect(await refusal(started.listSessions())).to.match(/fake-acp-agent does not offer session\/list/);
        expect(await refusal(started.resumeSession({ sessionId: 'x', cwd: dir }))).to.match(/does not offer session\/resume/);
        expect(await refusal(started.closeSession('x'))).to.match(/does not offer session\/close/);
        expect(await refusal(started.deleteSession('x'))).to.match(/does not offer session\/delete/);
        expect(recorded().map(r => r.method)).to.deep.equal(['initialize']);
    });
});
