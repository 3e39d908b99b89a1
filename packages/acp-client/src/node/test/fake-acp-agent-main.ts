/**
 * A scripted ACP agent for protocol tests, built on the ACP SDK's agent side. The first word of a
 * prompt picks what it does (see {@link turns}); every request and notification it receives is
 * appended to $FAKE_AGENT_LOG as one JSON line, so tests can check what the client sent.
 *
 * Environment: FAKE_AGENT_LOG (required), FAKE_AGENT_REQUIRE_AUTH=<key> (session/new fails with
 * auth_required until `authenticate` brings `_meta['api-key']` equal to it), FAKE_AGENT_EARLY_UPDATES
 * (session/new announces the session's commands before it answers, as codex-acp does), FAKE_AGENT_LEGACY_SETTINGS
 * (no config options: only the older modes and models, as Gemini CLI), FAKE_AGENT_NO_SESSION_STORE (no session/list,
 * resume, close or delete), FAKE_AGENT_PAGE_SIZE (sessions per session/list page; 50). Its sessions are kept in
 * $FAKE_AGENT_LOG.sessions.json, so that another process of it (after a restart) lists and resumes them.
 */
import * as fs from 'fs';
import { Readable, Writable } from 'stream';
import * as acp from '@agentclientprotocol/sdk';
import { changeSetting, FakeSessionStore, initialSettings, settings } from './fake-agent-sessions';
import { endlessMessage, floodStderr } from './fake-agent-floods';
import { askQuestion } from './fake-agent-questions';
import { askPermission } from './fake-agent-permissions';
import { untilExists } from './fake-agent-files';
import { runSubagents } from './fake-agent-subagents';

const logFile = process.env.FAKE_AGENT_LOG!;
const store = process.env.FAKE_AGENT_NO_SESSION_STORE ? undefined : new FakeSessionStore(`${logFile}.sessions.json`);
// `at`: when it arrived (ms since the epoch, sub-millisecond; comparable across processes), for the benchmarks' breakdowns.
const record = (kind: string, method: string, params: unknown) =>
    fs.appendFileSync(logFile, JSON.stringify({ kind, method, params, at: performance.timeOrigin + performance.now() }) + '\n');

let booleanSettings = false;
let authenticated = !process.env.FAKE_AGENT_REQUIRE_AUTH;
if (process.env.FAKE_AGENT_IGNORE_EOF) {
    // Like the Claude agent adapter: stdin's end does not end the process; SIGTERM does, cleanly.
    setInterval(() => undefined, 1 << 30);
    process.on('SIGTERM', () => process.exit(0));
}
const cancelled = new Map<string, () => void>();
const history = new Map<string, string[]>();
let sessions = store?.highestNumber() ?? 0;
type Context = acp.AgentRequestContext<acp.PromptRequest>;

const update = (cx: Context, value: acp.SessionUpdate) => cx.client.notify(acp.methods.client.session.update, { sessionId: cx.params.sessionId, update: value });
const say = (cx: Context, text: string) => update(cx, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const untilCancelled = (sessionId: string) => new Promise<void>(resolve => cancelled.set(sessionId, resolve));

const turns: Record<string, (cx: Context, args: string[]) => Promise<acp.PromptResponse>> = {
    /** Every kind of update a client has to render, in one turn. */
    async stream(cx) {
        await update(cx, { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Thinking about it.' } });
        await say(cx, 'Hello ');
        await say(cx, '**world**');
        await update(cx, {
            sessionUpdate: 'plan', entries: [
                { content: 'Read the file', priority: 'high', status: 'completed' },
                { content: 'Change it', priority: 'medium', status: 'in_progress' },
                { content: 'Run the tests', priority: 'low', status: 'pending' }
            ]
        });
        await update(cx, { sessionUpdate: 'tool_call', toolCallId: 'call-1', title: 'Searching for TODO', kind: 'search', status: 'pending', rawInput: { pattern: 'TODO' } });
        await update(cx, { sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status: 'in_progress' });
        await update(cx, {
            sessionUpdate: 'tool_call_update', toolCallId: 'call-1', status: 'completed',
            content: [{ type: 'content', content: { type: 'text', text: 'src/a.ts:3: TODO fix' } }], locations: [{ path: '/w/src/a.ts', line: 3 }]
        });
        // First seen in an update, never announced (as Gemini CLI does for failed calls).
        await update(cx, {
            sessionUpdate: 'tool_call_update', toolCallId: 'call-2', status: 'failed', kind: 'read',
            content: [{ type: 'content', content: { type: 'text', text: 'Path not in workspace' } }]
        });
        await update(cx, {
            sessionUpdate: 'available_commands_update',
            availableCommands: [
                { name: 'init', description: 'Create a GEMINI.md' }, { name: 'memory show', description: 'Show memory' },
                { name: 'remember', description: 'Remember a fact', input: { hint: 'the fact' } }
            ]
        });
        await update(cx, { sessionUpdate: 'current_mode_update', currentModeId: 'yolo' });
        await update(cx, { sessionUpdate: 'usage_update', used: 1200, size: 100000, cost: { amount: 0.01, currency: 'USD' } });
        await say(cx, ' Done.');
        return { stopReason: 'end_turn' };
    },
    /** A change that needs permission, first seen in the request, with its diff; then read and write through the client. */
    async write(cx, [filePath, ...words]) {
        const newText = words.join(' ') + '\n';
        const before = await cx.client.request(acp.methods.client.fs.readTextFile, { sessionId: cx.params.sessionId, path: filePath });
        const toolCall: acp.ToolCallUpdate = {
            toolCallId: 'write-1', title: `Writing to ${filePath}`, kind: 'edit', status: 'pending',
            content: [{ type: 'diff', path: filePath, oldText: before.content, newText }], locations: [{ path: filePath }]
        };
        const answer = await cx.client.request(acp.methods.client.session.requestPermission, {
            sessionId: cx.params.sessionId, toolCall, options: [
                { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
                { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
                { optionId: 'cancel', name: 'Reject', kind: 'reject_once' }
            ]
        });
        if (answer.outcome.outcome === 'cancelled') {
            return { stopReason: 'cancelled' };
        }
        if (answer.outcome.optionId === 'cancel') {
            await say(cx, 'The change was rejected.');
            return { stopReason: 'end_turn' };
        }
        await cx.client.request(acp.methods.client.fs.writeTextFile, { sessionId: cx.params.sessionId, path: filePath, content: newText });
        await update(cx, { sessionUpdate: 'tool_call_update', toolCallId: 'write-1', status: 'completed' });
        await say(cx, `Wrote ${filePath} (${answer.outcome.optionId}).`);
        return { stopReason: 'end_turn' };
    },
    /**
     * `links <folder>`: links to an IDE command (every markdown way to write one), to the web and to files, in each
     * part an agent writes (thought, message, resource links, plan, tool call); then asks to write `<folder>/proposal.txt`.
     */
    async links(cx, [folder]) {
        const command = 'command:aiCliCompanion.acceptAllDiffs';
        await update(cx, { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `Thinking of [README.md](${command}).` } });
        await say(cx, `Open [README.md](${command}), <${command}>, [the notes][notes], <a href="${command}">notes.md</a>, `);
        await say(cx, `[the docs](https://example.com/docs), [notes.md](file://${folder}/notes.md), [the key](file:///etc/passwd).\n\n[notes]: ${command}\n\n`);
        await update(cx, { sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', name: 'Accept everything', uri: command } });
        await say(cx, ' and ');
        await update(cx, { sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', name: 'notes.md', uri: `file://${folder}/notes.md` } });
        await update(cx, { sessionUpdate: 'plan', entries: [{ content: `Check [the notes](${command})`, priority: 'high', status: 'pending' }] });
        await update(cx, {
            sessionUpdate: 'tool_call', toolCallId: 'links-1', title: `Reading [notes](${command})`, kind: 'read', status: 'completed',
            content: [{ type: 'content', content: { type: 'text', text: JSON.stringify({ content: [{ type: 'text', text: `[README.md](${command})` }] }) } }]
        });
        return turns.write(cx, [`${folder}/proposal.txt`, 'changed', 'by', 'the', 'agent']);
    },
    async read(cx, [filePath, line, limit]) {
        const read = await cx.client.request(acp.methods.client.fs.readTextFile, {
            sessionId: cx.params.sessionId, path: filePath, line: line ? Number(line) : undefined, limit: limit ? Number(limit) : undefined
        });
        await say(cx, JSON.stringify(read.content));
        return { stopReason: 'end_turn' };
    },
    /** Runs `sh -c <rest>` in a client terminal with a 64-byte output limit and reports the result. */
    async terminal(cx, words) {
        const terminal = await cx.client.createTerminal({ sessionId: cx.params.sessionId, command: 'sh', args: ['-c', words.join(' ')], outputByteLimit: 64 });
        await update(cx, {
            sessionUpdate: 'tool_call', toolCallId: 'term-1', title: words.join(' '), kind: 'execute', status: 'in_progress',
            content: [{ type: 'terminal', terminalId: terminal.id }]
        });
        const exit = await terminal.waitForExit();
        const output = await terminal.currentOutput();
        await terminal.release();
        await update(cx, { sessionUpdate: 'tool_call_update', toolCallId: 'term-1', status: 'completed' });
        await say(cx, JSON.stringify({ exit, output }));
        return { stopReason: 'end_turn' };
    },
    /** Writes without reading or asking first, as an agent in a permissive mode does. */
    async put(cx, [filePath, ...words]) {
        await cx.client.request(acp.methods.client.fs.writeTextFile, { sessionId: cx.params.sessionId, path: filePath, content: words.join(' ') + '\n' });
        await say(cx, `Wrote ${filePath}.`);
        return { stopReason: 'end_turn' };
    },
    /**
     * Writes files itself, as Claude Code and Codex do, without the client: `selfwrite <path>=<text> …`
     * (`\\n` in the text is a line break); each write is a completed edit tool call with its location.
     */
    async selfwrite(cx, assignments) {
        for (const [index, assignment] of assignments.entries()) {
            const at = assignment.indexOf('=');
            const filePath = assignment.slice(0, at);
            const text = assignment.slice(at + 1).split('\\n').join('\n');
            fs.writeFileSync(filePath, text);
            await update(cx, {
                sessionUpdate: 'tool_call', toolCallId: `self-${index + 1}`, title: `Editing ${filePath}`, kind: 'edit', status: 'completed',
                locations: [{ path: filePath, line: text.split('\n').length }]
            });
        }
        await say(cx, `Wrote ${assignments.length} file(s).`);
        return { stopReason: 'end_turn' };
    },
    /** Starts `sh -c <rest>` in a client terminal with no output limit and says its id, without waiting for it. */
    async spawn(cx, words) {
        const terminal = await cx.client.createTerminal({ sessionId: cx.params.sessionId, command: 'sh', args: ['-c', words.join(' ')] });
        await say(cx, terminal.id);
        return { stopReason: 'end_turn' };
    },
    /** `output|wait|kill|release <terminalId>` on any id, as a hostile agent would; says the answer or the error. */
    async poke(cx, [operation, terminalId]) {
        const methods: Record<string, string> = {
            output: acp.methods.client.terminal.output, wait: acp.methods.client.terminal.waitForExit,
            kill: acp.methods.client.terminal.kill, release: acp.methods.client.terminal.release
        };
        try {
            const answer = await cx.client.request(methods[operation] as typeof acp.methods.client.terminal.output, { sessionId: cx.params.sessionId, terminalId });
            await say(cx, JSON.stringify({ answer }));
        } catch (error) {
            await say(cx, JSON.stringify({ error: (error as Error).message }));
        }
        return { stopReason: 'end_turn' };
    },
    /** A command whose output is `lines` long (a 35k-line output once cost an ACP client 890 MB). */
    async flood(cx, [lines]) {
        const text = Array.from({ length: Number(lines) || 50000 }, (_, index) => `output line ${index + 1}`).join('\n');
        await update(cx, { sessionUpdate: 'tool_call', toolCallId: 'flood-1', title: 'Print many lines', kind: 'execute', status: 'in_progress' });
        await update(cx, { sessionUpdate: 'tool_call_update', toolCallId: 'flood-1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text } }] });
        await say(cx, 'Flooded.');
        return { stopReason: 'end_turn' };
    },
    async slow(cx) {
        await say(cx, 'Working on it');
        await untilCancelled(cx.params.sessionId);
        return { stopReason: 'cancelled' };
    },
    /** Runs until the file it names exists (the test releases it), then ends as usual: a turn still running while the user writes on. */
    async hold(cx, [releaseFile]) {
        await say(cx, 'Holding.');
        const released = await Promise.race([untilCancelled(cx.params.sessionId).then(() => false), untilExists(releaseFile).then(() => true)]);
        if (released) {
            await say(cx, ' Released.');
        }
        return { stopReason: released ? 'end_turn' : 'cancelled' };
    },
    /** Asks permission and waits (see `askPermission`); `ask withdrawn`: the agent withdraws the request. */
    async ask(cx, [kind]) {
        const { said, stopReason } = await askPermission(cx.client, cx.params.sessionId, kind, `${logFile}.withdraw`);
        await say(cx, said);
        return { stopReason };
    },
    /** `question [bad|url|withdrawn]`: a form question (or a malformed one, a URL, one withdrawn); the agent says back what it got. */
    async question(cx, [kind]) {
        await say(cx, `answer: ${await askQuestion(cx.client, cx.params.sessionId, kind)}`);
        return { stopReason: 'end_turn' };
    },
    /** Two subagents' work under their tool calls (Claude Code's and Qwen Code's `_meta`), one asking permission. */
    async subagents(cx) {
        return { stopReason: await runSubagents(cx.client, cx.params.sessionId) };
    },
    async crash() {
        process.stderr.write('fatal: simulated crash of the fake agent\n');
        process.exit(3);
    },
    /** Asks the client something it does not serve (a method of a newer ACP), then an extension method (`_fake/hint`), then goes on. */
    async unsupported(cx) {
        const answer = await cx.client.request('x-future/ask', { sessionId: cx.params.sessionId, question: 'May I?' })
            .then(() => 'answered', (error: { code?: number }) => `error ${error.code}`);
        const extension = await cx.client.request('_fake/hint', { sessionId: cx.params.sessionId })
            .then(() => 'answered', (error: { code?: number }) => `error ${error.code}`);
        await say(cx, `x-future/ask: ${answer}, _fake/hint: ${extension}`);
        return { stopReason: 'end_turn' };
    },
    async garbage(cx) {
        process.stdout.write('this line is not JSON-RPC\n');
        await say(cx, 'still here');
        return { stopReason: 'end_turn' };
    },
    async fail() {
        throw new acp.RequestError(500, 'The model is overloaded; try again later');
    },
    endless: () => endlessMessage(),
    async stderrflood(cx, [mib]) {
        await floodStderr(Number(mib));
        await say(cx, 'flooded stderr');
        return { stopReason: 'end_turn' };
    },
    /** `configure <id> <value>`: the agent changes one of its settings itself and says so with config_option_update. */
    async configure(cx, [configId, value]) {
        const configOptions = changeSetting(cx.params.sessionId, configId, value === 'true' ? true : value === 'false' ? false : value);
        await update(cx, { sessionUpdate: 'config_option_update', configOptions });
        return { stopReason: 'end_turn' };
    },
    /** `title <words>…`: the agent names the session (session_info_update), as Codex and Claude Code do after a first turn. */
    async title(cx, words) {
        await update(cx, { sessionUpdate: 'session_info_update', title: words.join(' '), updatedAt: new Date().toISOString() });
        await say(cx, 'Named.');
        return { stopReason: 'end_turn' };
    },
    /** `commands <name>…`: the agent's commands are these from now on. */
    async commands(cx, names) {
        await update(cx, { sessionUpdate: 'available_commands_update', availableCommands: names.map(name => ({ name, description: `The ${name} command` })) });
        return { stopReason: 'end_turn' };
    },
    async echo(cx) {
        const text = cx.params.prompt.map(block => block.type === 'text' ? block.text : `[${block.type}]`).join('|');
        await say(cx, text);
        return { stopReason: 'end_turn' };
    }
};

void acp.agent({ name: 'fake-acp-agent' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
        record('request', 'initialize', params);
        // As the real adapters: an on/off setting is a boolean only for a client that takes them.
        booleanSettings = !!params.clientCapabilities?.session?.configOptions?.boolean;
        return {
            protocolVersion: acp.PROTOCOL_VERSION,
            agentInfo: { name: 'fake-acp-agent', version: '1.0.0' },
            agentCapabilities: {
                loadSession: true, mcpCapabilities: { http: true, sse: false }, promptCapabilities: { image: true },
                ...(store ? { sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} } } : {})
            },
            authMethods: [{ id: 'api-key', name: 'API key', description: 'Use an API key' }]
        };
    })
    .onRequest(acp.methods.agent.authenticate, ({ params }) => {
        record('request', 'authenticate', params);
        if (params._meta?.['api-key'] !== process.env.FAKE_AGENT_REQUIRE_AUTH) {
            throw new acp.RequestError(-32000, 'Invalid API key');
        }
        authenticated = true;
        return {};
    })
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
        record('request', 'session/new', params);
        if (!authenticated) {
            throw acp.RequestError.authRequired(undefined, 'An API key is required');
        }
        const sessionId = `fake-session-${++sessions}`;
        history.set(sessionId, []);
        if (process.env.FAKE_AGENT_EARLY_UPDATES) {
            await client.notify(acp.methods.client.session.update, {
                sessionId, update: { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'early', description: 'Announced before session/new answered' }] }
            });
        }
        if (!process.env.FAKE_AGENT_LEGACY_SETTINGS) {
            settings.set(sessionId, initialSettings(booleanSettings));
        }
        store?.add(sessionId, params.cwd);
        return {
            sessionId,
            ...(settings.has(sessionId) ? { configOptions: settings.get(sessionId) } : {}),
            modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'yolo', name: 'YOLO' }] },
            models: { currentModelId: 'fake-pro', availableModels: [{ modelId: 'fake-pro', name: 'Fake Pro' }, { modelId: 'fake-flash', name: 'Fake Flash' }] }
        };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
        record('request', 'session/load', params);
        if (params.sessionId.startsWith('missing-')) {
            throw new acp.RequestError(-32603, 'Internal error', { details: `Invalid session identifier "${params.sessionId}".` });
        }
        await client.notify(acp.methods.client.session.update, {
            sessionId: params.sessionId, update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'earlier question' } }
        });
        await client.notify(acp.methods.client.session.update, {
            sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'earlier answer' } }
        });
        if (!process.env.FAKE_AGENT_LEGACY_SETTINGS) {
            // A loaded session has its settings again: this process's own, or the defaults after a restart.
            settings.set(params.sessionId, settings.get(params.sessionId) ?? initialSettings(booleanSettings));
        }
        return {
            modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }] },
            ...(settings.has(params.sessionId) ? { configOptions: settings.get(params.sessionId) } : {})
        };
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
        record('request', 'session/set_mode', params);
        await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'current_mode_update', currentModeId: params.modeId } });
        return {};
    })
    .onRequest(acp.methods.agent.session.list, ({ params }) => {
        record('request', 'session/list', params);
        return store!.page(params, Number(process.env.FAKE_AGENT_PAGE_SIZE ?? 50));
    })
    .onRequest(acp.methods.agent.session.resume, ({ params }) => {
        record('request', 'session/resume', params);
        if (!store!.has(params.sessionId)) {
            throw acp.RequestError.resourceNotFound(params.sessionId);
        }
        settings.set(params.sessionId, settings.get(params.sessionId) ?? initialSettings(booleanSettings));
        history.set(params.sessionId, history.get(params.sessionId) ?? []);
        return { configOptions: settings.get(params.sessionId) };
    })
    .onRequest(acp.methods.agent.session.close, ({ params }) => {
        record('request', 'session/close', params);
        return {};
    })
    .onRequest(acp.methods.agent.session.delete, ({ params }) => {
        record('request', 'session/delete', params);
        store!.remove(params.sessionId);
        return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
        record('request', 'session/set_config_option', params);
        return { configOptions: changeSetting(params.sessionId, params.configId, params.value) };
    })
    .onRequest<{ sessionId: string; modelId: string }, object>('session/set_model', (raw: unknown) => raw as { sessionId: string; modelId: string }, ({ params }) => {
        record('request', 'session/set_model', params);
        return {};
    })
    .onRequest(acp.methods.agent.session.prompt, async cx => {
        record('request', 'session/prompt', cx.params);
        const first = cx.params.prompt.find(block => block.type === 'text');
        const [word, ...args] = (first?.type === 'text' ? first.text : '').trim().split(/\s+/);
        history.get(cx.params.sessionId)?.push(word);
        const turn = turns[word] ?? turns.echo;
        return turn(cx, args);
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
        record('notification', 'session/cancel', params);
        cancelled.get(params.sessionId)?.();
    })
    .connect(acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>))
    .closed.then(() => process.exit(0));
