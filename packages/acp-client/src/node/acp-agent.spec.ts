import { expect } from 'chai';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { OutputBuffer } from '../common/output-buffer';
import { ToolCallState } from '../common/tool-call-tracker';
import { AcpAgent, AcpClientServices, AcpSession } from './acp-agent';
import { AcpAgentExit, AcpAgentNotFoundError, MAX_STDERR_LINE_LENGTH } from './acp-agent-connection';

const FAKE_AGENT = path.join(__dirname, 'test', 'fake-acp-agent-main.js');

interface Recorded { kind: string; method: string; params: Record<string, unknown> }

/** The client side against a scripted agent process: what a real agent can send, and how we answer. */
describe('AcpAgent against a scripted ACP agent process', function (): void {
    this.timeout(20000);
    let dir: string;
    let logFile: string;
    let agent: AcpAgent | undefined;
    let updates: { update: acp.SessionUpdate; toolCall?: ToolCallState }[];
    let permissions: { params: acp.RequestPermissionRequest; toolCall: ToolCallState }[];
    let answer: (params: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionOutcome>;
    let files: Map<string, string>;
    const warnings: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };

    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-agent-spec-'));
        logFile = path.join(dir, 'agent-log.jsonl');
        updates = [];
        permissions = [];
        files = new Map([['/w/a.txt', 'one\ntwo\nthree\nfour\n']]);
        answer = async params => ({ outcome: 'selected', optionId: params.options.find(o => o.kind === 'allow_once')!.optionId });
        warnings.length = 0;
    });

    afterEach(async () => {
        await agent?.dispose();
        agent = undefined;
        fs.rmSync(dir, { recursive: true, force: true });
    });

    const terminals = new Map<string, { output: OutputBuffer; exit: Promise<acp.WaitForTerminalExitResponse> }>();
    const services = (): AcpClientServices => ({
        onUpdate: (_session, update, toolCall) => updates.push({ update, toolCall }),
        askPermission: async (_session, params, toolCall) => {
            permissions.push({ params, toolCall });
            return answer(params);
        },
        readTextFile: async (_session, params) => {
            const text = files.get(params.path) ?? '';
            const lines = text.split('\n');
            const start = (params.line ?? 1) - 1;
            return { content: lines.slice(start, params.limit ? start + params.limit : undefined).join('\n') };
        },
        writeTextFile: async (_session, params) => {
            files.set(params.path, params.content);
        },
        terminals: {
            create: async (_session, params) => {
                const output = new OutputBuffer(params.outputByteLimit ?? undefined);
                const child = spawn(params.command, params.args ?? [], { cwd: dir });
                child.stdout.on('data', chunk => output.append(chunk));
                const exit = new Promise<acp.WaitForTerminalExitResponse>(resolve => child.on('exit', (exitCode, signal) => resolve({ exitCode, signal })));
                const id = `t${terminals.size + 1}`;
                terminals.set(id, { output, exit });
                return { terminalId: id };
            },
            output: async params => ({ output: terminals.get(params.terminalId)!.output.text, truncated: terminals.get(params.terminalId)!.output.truncated }),
            waitForExit: params => terminals.get(params.terminalId)!.exit,
            kill: async () => undefined,
            release: async params => { terminals.delete(params.terminalId); }
        }
    });

    function start(env: NodeJS.ProcessEnv = {}, command = process.execPath): AcpAgent {
        agent = new AcpAgent({ command, args: [FAKE_AGENT], cwd: dir, env: { PATH: process.env.PATH, FAKE_AGENT_LOG: logFile, ...env } }, services(), logger);
        return agent;
    }

    async function session(env?: NodeJS.ProcessEnv): Promise<AcpSession> {
        const started = start(env);
        await started.initialize({ name: 'spec', version: '0' });
        return started.newSession({ cwd: dir, mcpServers: [{ type: 'http', name: 'theia', url: 'http://127.0.0.1:1/mcp', headers: [{ name: 'Authorization', value: 'Bearer x' }] }] });
    }

    const recorded = (): Recorded[] => fs.readFileSync(logFile, 'utf8').trim().split('\n').map(line => JSON.parse(line));
    const text = (kind: string) => updates.flatMap(({ update }) => {
        const content = update.sessionUpdate === kind && 'content' in update ? update.content : undefined;
        return content && !Array.isArray(content) && content.type === 'text' ? [content.text] : [];
    }).join('');

    it('advertises exactly the capabilities it serves and hands the IDE\'s MCP server to session/new', async () => {
        const s = await session();
        const [initialize, created] = recorded();
        expect(initialize.params.clientCapabilities).to.deep.include({
            fs: { readTextFile: true, writeTextFile: true }, terminal: true, session: { configOptions: { boolean: {} } }
        });
        expect(agent!.initializeResponse?.agentInfo?.name).to.equal('fake-acp-agent');
        expect(agent!.canLoadSessions).to.equal(true);
        expect(created.params.mcpServers).to.deep.equal([{ type: 'http', name: 'theia', url: 'http://127.0.0.1:1/mcp', headers: [{ name: 'Authorization', value: 'Bearer x' }] }]);
        expect(s.currentModeId).to.equal('default');
        expect(s.setup.models?.availableModels?.map(m => m.modelId)).to.deep.equal(['fake-pro', 'fake-flash']);
    });

    it('keeps the updates an agent sends for a session before session/new answers, and hands them to it', async () => {
        const s = await session({ FAKE_AGENT_EARLY_UPDATES: '1' });
        expect(s.sessionId).to.equal('fake-session-1');
        expect(updates.map(u => u.update)).to.deep.equal([
            { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'early', description: 'Announced before session/new answered' }] }
        ]);
        expect(warnings).to.deep.equal([]);
    });

    it('receives every kind of session update in order, with tool calls merged across updates', async () => {
        const s = await session();
        const result = await s.prompt([{ type: 'text', text: 'stream' }]);
        expect(result.stopReason).to.equal('end_turn');
        expect(updates.map(u => u.update.sessionUpdate)).to.deep.equal([
            'agent_thought_chunk', 'agent_message_chunk', 'agent_message_chunk', 'plan', 'tool_call', 'tool_call_update', 'tool_call_update',
            'tool_call_update', 'available_commands_update', 'current_mode_update', 'usage_update', 'agent_message_chunk'
        ]);
        expect(text('agent_message_chunk')).to.equal('Hello **world** Done.');
        expect(text('agent_thought_chunk')).to.equal('Thinking about it.');
        const search = s.toolCalls.get('call-1')!;
        expect(search).to.deep.include({ title: 'Searching for TODO', kind: 'search', status: 'completed', rawInput: { pattern: 'TODO' } });
        expect(search.locations).to.deep.equal([{ path: '/w/src/a.ts', line: 3 }]);
        expect(s.toolCalls.get('call-2')).to.deep.include({ status: 'failed', kind: 'read', title: 'call-2' });
        expect(s.currentModeId).to.equal('yolo');
    });

    it('asks permission for a change first seen in the request, with its diff, then serves the read and the write', async () => {
        const s = await session();
        const result = await s.prompt([{ type: 'text', text: 'write /w/new.txt brand new text' }]);
        expect(result.stopReason).to.equal('end_turn');
        expect(permissions).to.have.length(1);
        expect(permissions[0].toolCall).to.deep.include({ toolCallId: 'write-1', kind: 'edit', status: 'pending', title: 'Writing to /w/new.txt' });
        expect(permissions[0].toolCall.content).to.deep.equal([{ type: 'diff', path: '/w/new.txt', oldText: '', newText: 'brand new text\n' }]);
        expect(permissions[0].params.options.map(o => o.kind)).to.deep.equal(['allow_always', 'allow_once', 'reject_once']);
        expect(files.get('/w/new.txt')).to.equal('brand new text\n');
        expect(s.toolCalls.get('write-1')?.status).to.equal('completed');
        expect(text('agent_message_chunk')).to.equal('Wrote /w/new.txt (proceed_once).');
    });

    it('a rejected change is not written', async () => {
        answer = async () => ({ outcome: 'selected', optionId: 'cancel' });
        const s = await session();
        await s.prompt([{ type: 'text', text: 'write /w/a.txt replaced' }]);
        expect(files.get('/w/a.txt')).to.equal('one\ntwo\nthree\nfour\n');
        expect(text('agent_message_chunk')).to.equal('The change was rejected.');
    });

    it('refuses an answer that is not one of the options the agent offered', async () => {
        answer = async () => ({ outcome: 'selected', optionId: 'made-up' });
        const s = await session();
        const failure = await s.prompt([{ type: 'text', text: 'write /w/a.txt replaced' }]).then(() => undefined, error => error);
        expect(String(failure?.message ?? failure)).to.match(/Internal error|not one of the options/);
        expect(files.get('/w/a.txt')).to.equal('one\ntwo\nthree\nfour\n');
    });

    it('passes line and limit of a read to the IDE', async () => {
        const s = await session();
        await s.prompt([{ type: 'text', text: 'read /w/a.txt 2 2' }]);
        expect(text('agent_message_chunk')).to.equal(JSON.stringify('two\nthree'));
    });

    it('runs a terminal command for the agent with its output limit', async () => {
        const s = await session();
        await s.prompt([{ type: 'text', text: 'terminal printf "%080d" 7; exit 4' }]);
        const reported = JSON.parse(text('agent_message_chunk'));
        expect(reported.exit).to.deep.equal({ exitCode: 4, signal: null });
        expect(reported.output.truncated).to.equal(true);
        expect(reported.output.output).to.equal('0'.repeat(63) + '7');
        expect(s.toolCalls.get('term-1')?.content).to.deep.equal([{ type: 'terminal', terminalId: 't1' }]);
    });

    it('cancels a running turn: session/cancel reaches the agent and the turn ends cancelled', async () => {
        const s = await session();
        const turn = s.prompt([{ type: 'text', text: 'slow' }]);
        while (!text('agent_message_chunk')) {
            await new Promise(resolve => setTimeout(resolve, 10));
        }
        await s.cancel();
        expect((await turn).stopReason).to.equal('cancelled');
        expect(recorded().some(r => r.method === 'session/cancel' && r.params.sessionId === s.sessionId)).to.equal(true);
    });

    it('answers a permission request that is still open when the turn is cancelled with "cancelled"', async () => {
        answer = () => new Promise(() => undefined); // the user never answers
        const s = await session();
        const turn = s.prompt([{ type: 'text', text: 'ask' }]);
        while (!permissions.length) {
            await new Promise(resolve => setTimeout(resolve, 10));
        }
        expect(s.waitingForPermission).to.equal(1);
        await s.cancel();
        expect((await turn).stopReason).to.equal('cancelled');
        expect(text('agent_message_chunk')).to.equal('permission: {"outcome":"cancelled"}');
        expect(s.waitingForPermission).to.equal(0);
    });

    it('an agent that crashes mid-turn: the prompt fails with its exit and last words, not a hang', async () => {
        const s = await session();
        const exits: unknown[] = [];
        agent!.onExit(exit => exits.push(exit));
        const failure = await s.prompt([{ type: 'text', text: 'crash' }]).then(() => undefined, error => error as Error);
        expect(failure?.message).to.match(/exited with code 3/);
        expect(failure?.message).to.contain('fatal: simulated crash of the fake agent');
        expect(exits).to.deep.equal([{ code: 3, signal: null, stderrTail: 'fatal: simulated crash of the fake agent', expected: false }]);
    });

    it('a request this client does not serve is answered "method not found", reported with its session, and the turn goes on', async () => {
        const unsupported: { session?: string; method: string }[] = [];
        agent = new AcpAgent({ command: process.execPath, args: [FAKE_AGENT], cwd: dir, env: { PATH: process.env.PATH, FAKE_AGENT_LOG: logFile } },
            { ...services(), onUnsupportedRequest: (session, method) => unsupported.push({ session: session?.sessionId, method }) }, logger);
        await agent.initialize({ name: 'spec', version: '0' });
        const s = await agent.newSession({ cwd: dir, mcpServers: [] });
        const result = await s.prompt([{ type: 'text', text: 'unsupported' }]);
        expect(result.stopReason).to.equal('end_turn');
        expect(text('agent_message_chunk')).to.equal('x-future/ask: error -32601, _fake/hint: error -32601');
        expect(unsupported).to.deep.equal([{ session: s.sessionId, method: 'x-future/ask' }, { session: s.sessionId, method: '_fake/hint' }]);
        expect(warnings.join('\n')).to.contain('The agent asked "x-future/ask", which this client does not serve');
    });

    it('a line that is not JSON-RPC is logged and the session goes on', async () => {
        const s = await session();
        expect((await s.prompt([{ type: 'text', text: 'garbage' }])).stopReason).to.equal('end_turn');
        expect(text('agent_message_chunk')).to.equal('still here');
        expect(warnings.some(w => w.includes('not a JSON-RPC message') && w.includes('this line is not JSON-RPC'))).to.equal(true);
        expect((await s.prompt([{ type: 'text', text: 'echo again' }])).stopReason).to.equal('end_turn');
    });

    it('a prompt the agent fails reports the agent\'s error', async () => {
        const s = await session();
        const failure = await s.prompt([{ type: 'text', text: 'fail' }]).then(() => undefined, error => error as { code: number; message: string });
        expect(failure).to.deep.include({ code: 500, message: 'The model is overloaded; try again later' });
    });

    it('authenticates when session/new needs it', async () => {
        const started = start({ FAKE_AGENT_REQUIRE_AUTH: 'k3y' });
        const init = await started.initialize({ name: 'spec', version: '0' });
        expect(init.authMethods?.map(m => m.id)).to.deep.equal(['api-key']);
        const refused = await started.newSession({ cwd: dir, mcpServers: [] }).then(() => undefined, error => error as { code: number });
        expect(refused?.code).to.equal(-32000);
        await started.authenticate({ methodId: 'api-key', _meta: { 'api-key': 'k3y' } });
        expect((await started.newSession({ cwd: dir, mcpServers: [] })).sessionId).to.equal('fake-session-1');
    });

    it('switches mode and model, and loads a stored session with its replayed history', async () => {
        const s = await session();
        await s.setMode('yolo');
        await s.setModel('fake-flash');
        expect([s.currentModeId, s.currentModelId]).to.deep.equal(['yolo', 'fake-flash']);
        const loaded = await agent!.loadSession({ sessionId: 'stored-7', cwd: dir, mcpServers: [] });
        expect(loaded.sessionId).to.equal('stored-7');
        expect(text('user_message_chunk')).to.equal('earlier question');
        expect(recorded().map(r => r.method)).to.include.members(['session/set_mode', 'session/set_model', 'session/load']);
    });

    it('an agent that is not installed fails with its command named', async () => {
        const started = start({}, path.join(dir, 'no-such-agent'));
        const failure = await started.initialize({ name: 'spec', version: '0' }).then(() => undefined, error => error);
        expect(failure).to.be.instanceOf(AcpAgentNotFoundError);
        expect((failure as AcpAgentNotFoundError).command).to.equal(path.join(dir, 'no-such-agent'));
    });

    it('starts the agent found on PATH\'s absolute entries, never the workspace\'s own, when PATH lists "." first', async () => {
        const marker = path.join(dir, 'workspace-agent-ran');
        // The agent's working folder is the repository: it holds a program named like the agent.
        fs.writeFileSync(path.join(dir, 'fake-agent'), `#!/bin/sh\ntouch '${marker}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
        const hostilePath = ['.', '', process.env.PATH].join(path.delimiter);
        agent = new AcpAgent({ command: 'fake-agent', args: [FAKE_AGENT], cwd: dir, env: { PATH: hostilePath, FAKE_AGENT_LOG: logFile } }, services(), logger);
        const failure = await agent.initialize({ name: 'spec', version: '0' }).then(() => undefined, error => error);
        expect(fs.existsSync(marker), 'the workspace\'s program ran').to.equal(false);
        expect(failure).to.be.instanceOf(AcpAgentNotFoundError);
        expect((failure as Error).message).to.equal('The ACP agent command "fake-agent" was not found on the PATH (relative PATH entries such as "." are not searched)');
        await agent.dispose();
        // Installed in a folder PATH names absolutely, after the ".": that one runs.
        const installed = path.join(dir, 'installed');
        fs.mkdirSync(installed);
        fs.writeFileSync(path.join(installed, 'fake-agent'), `#!/bin/sh\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
        agent = new AcpAgent({ command: 'fake-agent', args: [FAKE_AGENT], cwd: dir, env: { PATH: ['.', '', installed].join(path.delimiter), FAKE_AGENT_LOG: logFile } },
            services(), logger);
        expect((await agent.initialize({ name: 'spec', version: '0' })).agentInfo?.name).to.equal('fake-acp-agent');
        expect(fs.existsSync(marker), 'the workspace\'s program ran').to.equal(false);
        // A relative path with a separator would name a file of the repository: refused as not found.
        const relative = new AcpAgent({ command: './fake-agent', args: [FAKE_AGENT], cwd: dir, env: { PATH: installed, FAKE_AGENT_LOG: logFile } }, services(), logger);
        expect(await relative.initialize({ name: 'spec', version: '0' }).then(() => undefined, error => error)).to.be.instanceOf(AcpAgentNotFoundError);
        await relative.dispose();
        expect(fs.existsSync(marker), 'the workspace\'s program ran').to.equal(false);
    });

    it('stops an agent that writes an endless line on stdout at the message limit, with a clear error, memory bounded', async () => {
        const s = await session();
        const exits: AcpAgentExit[] = [];
        agent!.onExit(exit => exits.push(exit));
        const peak = sampleRss();
        const failure = await s.prompt([{ type: 'text', text: 'endless' }]).then(() => undefined, error => error as Error);
        const grown = peak.stop();
        expect(failure?.message).to.match(/^The agent \(.*\) was stopped: it wrote a message longer than 64 MiB on stdout, more than this client reads/);
        expect(exits).to.have.length(1);
        expect(exits[0]).to.deep.include({ expected: false });
        expect(() => process.kill(-agent!.connection.pid!, 0), 'the agent\'s process group is gone').to.throw();
        expect(grown, `RSS grew by ${Math.round(grown / 1024 / 1024)} MiB`).to.be.below(400 * 1024 * 1024);
    });

    it('keeps 64 KiB of an endless stderr line for the log and the exit message, and the session goes on', async () => {
        const s = await session();
        const peak = sampleRss();
        expect((await s.prompt([{ type: 'text', text: 'stderrflood 300' }])).stopReason).to.equal('end_turn');
        const grown = peak.stop();
        expect(text('agent_message_chunk')).to.equal('flooded stderr');
        expect(grown, `RSS grew by ${Math.round(grown / 1024 / 1024)} MiB`).to.be.below(150 * 1024 * 1024);
        await agent!.dispose();
        const tail = (await agent!.connection.exited).stderrTail.split('\n');
        expect(tail).to.deep.equal([`${'e'.repeat(MAX_STDERR_LINE_LENGTH)} [line cut at ${MAX_STDERR_LINE_LENGTH} characters]`, 'after the flood']);
    });

    it('dispose asks an agent that ignores the end of its input to stop with SIGTERM before it kills it', async () => {
        await session({ FAKE_AGENT_IGNORE_EOF: '1' });
        await agent!.dispose();
        const exit = await agent!.connection.exited;
        // Exit code 0 from its SIGTERM handler; a SIGKILL would show as the signal.
        expect(exit).to.deep.include({ code: 0, signal: null, expected: true });
    });

    it('dispose stops the agent\'s whole process group', async () => {
        await session();
        const pid = agent!.connection.pid!;
        await agent!.dispose();
        expect(() => process.kill(-pid, 0)).to.throw();
    });
});

/** Samples this process's RSS until stopped; answers the most it grew above where it started. */
function sampleRss(): { stop(): number } {
    const start = process.memoryUsage().rss;
    let most = start;
    const timer = setInterval(() => most = Math.max(most, process.memoryUsage().rss), 10);
    return {
        stop: () => {
            clearInterval(timer);
            return Math.max(most, process.memoryUsage().rss) - start;
        }
    };
}
