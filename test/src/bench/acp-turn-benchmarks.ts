import * as acp from '@agentclientprotocol/sdk';
import { ChildProcess } from 'child_process';
import { signalProcessGroup, spawnInOwnGroup } from '@theia-cli-companion/cli-process/lib/node';
import * as fs from 'fs';
import * as path from 'path';
import { Readable, Writable } from 'stream';
import { AcpChat } from '../hosts/acp-chat-view';
import { trackProcess } from '../support/processes';
import { Sandbox } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';
import { firstRpcFrame, watchRpcFrames } from './page-rpc-marks';
import { markAt, takeBackendMarks } from './timing-marks';
import { FAKE_AGENT } from '../support/fake-acp-agent';
import { MockGeminiApi } from '../mocks/mock-gemini-api';
import { Figure, now, round, summarize } from './stats';

/** The scripted ACP agent of the tests: it answers a prompt by streaming its text back. */
export const FAKE_AGENT_NAME = 'BenchFake';

const chatAgentLog = (sandbox: Sandbox) => path.join(sandbox.tmp, 'bench-chat-agent.jsonl');

/** The chat's agent setting for the scripted agent (its log goes into the sandbox). */
export function fakeAgentSetting(sandbox: Sandbox): Record<string, unknown> {
    const env = { FAKE_AGENT_LOG: chatAgentLog(sandbox) };
    return { 'aiCliCompanion.acp.agents': [{ name: FAKE_AGENT_NAME, command: process.execPath, args: [FAKE_AGENT], env }] };
}
const GOAL = 1.2;
/** The floor chat agent of `test/bench-floor`: a Theia AI chat agent whose backend streams the message back. */
const FLOOR_AGENT = 'BenchFloor';

/** How one agent is started by the bare client, and when it (or its model) had a prompt: for the breakdown. */
export interface BenchAgent {
    /** Its name in the chat (`@name`). */
    readonly name: string;
    readonly label: string;
    readonly id: string;
    readonly command: string;
    readonly args: readonly string[];
    readonly env: NodeJS.ProcessEnv;
    /** When the agent (or its model API) first received the prompt holding `token` after `after`. */
    received(token: string, after: number): number;
    /** What "received" means in the breakdown. */
    readonly receivedBy: string;
}

/** The scripted agent: its log stamps each request it receives. */
export function fakeBenchAgent(sandbox: Sandbox): BenchAgent {
    const bareLog = path.join(sandbox.tmp, 'bench-bare-agent.jsonl');
    return {
        name: FAKE_AGENT_NAME, id: 'acp-turn-fake', label: 'scripted ACP agent', command: process.execPath, args: [FAKE_AGENT],
        env: { ...process.env, FAKE_AGENT_LOG: bareLog }, receivedBy: 'the agent has it',
        received: (token, after) => Math.min(...[chatAgentLog(sandbox), bareLog].map(log => promptArrival(log, token, after)))
    };
}

/**
 * The real Gemini CLI in ACP mode (`gemini --acp`, as the chat's built-in Gemini agent starts it) on the
 * mock Gemini API, which streams the prompt back (see {@link echoingGeminiApi}); the API stamps each request.
 */
export function geminiBenchAgent(sandbox: Sandbox, api: MockGeminiApi): BenchAgent {
    return {
        name: 'Gemini', id: 'acp-turn-gemini', label: 'the real `gemini --acp` on the mock Gemini API',
        command: path.join(sandbox.root, 'bin', 'gemini'), args: ['--acp'], env: sandbox.env, receivedBy: 'the model API has it',
        received: (token, after) => {
            const request = api.requests.find(candidate => candidate.at >= after && MockGeminiApi.lastUserText(candidate.contents).includes(token));
            if (!request) {
                throw new Error(`the mock Gemini API got no request holding ${token}`);
            }
            return request.at;
        }
    };
}

/**
 * A mock Gemini API whose model answers with the prompt's token (`warm-up` or `ping-…`): the first text chunk
 * carries it. Only the token: the chat sends the open editor along, which must not come back as the answer.
 */
export function echoingGeminiApi(): MockGeminiApi {
    return new MockGeminiApi(contents => ({ text: `You said: ${/ping-\d+-\d+|warm-up/.exec(MockGeminiApi.lastUserText(contents))?.[0] ?? 'nothing I expected'}` }));
}

/** The same agent driven by a bare ACP SDK client: spawn, initialize, one session; each prompt timed to its first text chunk. */
class BareAcpClient {
    protected readonly child: ChildProcess;
    protected connection: ReturnType<acp.ClientApp['connect']>;
    protected sessionId = '';
    protected firstText?: (text: string) => void;
    /** The text chunks of the turn under way, for the message when its token does not come. */
    protected chunks: string[] = [];

    constructor(agent: BenchAgent, cwd: string) {
        // A group of its own: Gemini CLI relaunches itself as a child process, and closing must end both.
        this.child = spawnInOwnGroup(agent.command, agent.args, { cwd, stdio: ['pipe', 'pipe', 'inherit'], env: agent.env });
    }

    async open(cwd: string): Promise<void> {
        trackProcess(this.child.pid!);
        const stream = acp.ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>);
        this.connection = acp.client({ name: 'bench-bare-client' })
            .onNotification(acp.methods.client.session.update, ({ params }) => {
                if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text') {
                    this.chunks.push(params.update.content.text);
                    this.firstText?.(this.chunks.join(''));
                }
            })
            .onRequest(acp.methods.client.session.requestPermission, async () => ({ outcome: { outcome: 'cancelled' } }))
            .connect(stream);
        await withTimeout(this.connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} }),
            'the agent to initialize');
        this.sessionId = (await withTimeout(this.connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }), 'a session')).sessionId;
    }

    /** When the prompt was sent and when its first text chunk arrived. */
    async turn(text: string): Promise<{ sent: number; shown: number }> {
        this.chunks = [];
        const sent = now();
        const arrived = new Promise<number>(resolve => this.firstText = streamed => streamed.includes(text) && resolve(now()));
        const done = this.connection.agent.request(acp.methods.agent.session.prompt, { sessionId: this.sessionId, prompt: [{ type: 'text', text }] });
        const shown = await withTimeout(Promise.race([arrived, done.then(result => {
            throw new Error(`the turn ended (${result.stopReason}) without the text "${text}"`);
        })]), `the text "${text}"`).catch(error => {
            throw new Error(`${error.message}; the agent wrote: ${JSON.stringify(this.chunks.join('').slice(0, 500))}`);
        });
        await withTimeout(done, 'the turn to end');
        return { sent, shown };
    }

    async close(): Promise<void> {
        const exited = new Promise(resolve => this.child.exitCode !== null || this.child.signalCode !== null ? resolve(undefined) : this.child.once('exit', resolve));
        signalProcessGroup(this.child, 'SIGTERM');
        const timer = setTimeout(() => signalProcessGroup(this.child, 'SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
    }
}

function withTimeout<T>(promise: Promise<T>, what: string, timeoutMs = 60000): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([promise, new Promise<never>((_resolve, reject) => timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs))])
        .finally(() => clearTimeout(timer));
}

type Samples<K extends string> = Record<K, number[]>;
type OursSamples = Samples<'total' | 'frontend' | 'toAgent' | 'toPage' | 'render' | 'busy' | 'toBackend' | 'beforeAgent' | 'acpToAgent' | 'backToBackend' | 'backendToPage'>;
type FloorSamples = Samples<'total' | 'echo' | 'frontend' | 'toBackend' | 'toPage' | 'render'>;
const samples = <K extends string>(...keys: K[]): Samples<K> => Object.fromEntries(keys.map(key => [key, []])) as unknown as Samples<K>;

/**
 * A chat turn's overhead: from Enter in Theia AI's chat to the agent's first text shown in the response,
 * against a bare ACP SDK client sending the same prompt to the same agent, and the floor chat agent of
 * `test/bench-floor` (a Theia AI chat agent whose backend streams the message back), alternating. Both sessions
 * are started before the first timed turn (an agent's start is not a turn's cost). Ours and the floor are broken
 * down where the prompt leaves the page, where the agent (its model, the floor's backend) has it, and where the
 * text arrives in the page.
 */
export async function benchAcpTurn(options: { quick: boolean; workspace: string }, window: TheiaWindow, backend: TheiaBackend, agent: BenchAgent): Promise<Figure> {
    const rounds = options.quick ? 2 : 20;
    const chat = new AcpChat(window, backend);
    await chat.newChat();
    await chat.finished(await chat.send(`@${agent.name} warm-up`, true));
    const bare = new BareAcpClient(agent, options.workspace);
    await bare.open(options.workspace);
    const ours = samples('total', 'frontend', 'toAgent', 'toPage', 'render', 'busy', 'toBackend', 'beforeAgent', 'acpToAgent', 'backToBackend', 'backendToPage');
    const base = samples('total', 'toAgent', 'back');
    const floor = samples('total', 'echo', 'frontend', 'toBackend', 'toPage', 'render');
    try {
        await bare.turn('warm-up');
        await chat.finished(await chat.send(`@${FLOOR_AGENT} warm-up`, true));
        for (let round = 0; round < rounds; round++) {
            const token = `ping-${round}-${Date.now()}`;
            const bareTurn = await bare.turn(token);
            const bareAgentAt = agent.received(token, bareTurn.sent);
            base.total.push(bareTurn.shown - bareTurn.sent);
            base.toAgent.push(bareAgentAt - bareTurn.sent);
            base.back.push(bareTurn.shown - bareAgentAt);
            await oursRound(chat, window, agent, token, ours);
            await floorRound(chat, window, `ping-${round}-${Date.now()}`, floor);
        }
    } finally {
        await watchRpcFrames(window, []);
        await bare.close();
    }
    return turnFigure(agent, ours, base, floor);
}

async function oursRound(chat: AcpChat, window: TheiaWindow, agent: BenchAgent, token: string, ours: OursSamples): Promise<void> {
    await watchRpcFrames(window, [token]);
    await takeBackendMarks(window);
    const turn = await chatTurn(chat, window, agent.name, token);
    const frame = await firstRpcFrame(window, token, { after: turn.sent });
    const agentAt = agent.received(token, turn.sent);
    // The agent streams the prompt back: the first frame bringing the token after the agent had it is its text.
    const back = await firstRpcFrame(window, token, { after: agentAt, direction: 'in' });
    const marks = await takeBackendMarks(window);
    const received = markAt(marks, 'acp-turn:prompt-received', frame);
    const toAgent = markAt(marks, 'acp-turn:prompt-to-agent', received);
    // The update bringing the text: the last one the backend had before that frame left it.
    const updates = marks.filter(mark => mark.name === 'acp-turn:update-received' && mark.at >= agentAt && mark.at <= back);
    const updateAt = updates.length ? updates[updates.length - 1].at : markAt(marks, 'acp-turn:update-received', agentAt);
    ours.toBackend.push(received - frame);
    ours.beforeAgent.push(toAgent - received);
    ours.acpToAgent.push(agentAt - toAgent);
    ours.backToBackend.push(updateAt - agentAt);
    ours.backendToPage.push(back - updateAt);
    ours.total.push(turn.shown - turn.sent);
    ours.frontend.push(frame - turn.sent);
    ours.toAgent.push(agentAt - frame);
    ours.toPage.push(back - agentAt);
    ours.render.push(turn.shown - back);
    ours.busy.push(turn.busyMs);
}

async function floorRound(chat: AcpChat, window: TheiaWindow, token: string, floor: FloorSamples): Promise<void> {
    await watchRpcFrames(window, [token]);
    const turn = await chatTurn(chat, window, FLOOR_AGENT, token);
    const echo = (await floorEchoes(window)).find(candidate => candidate.text.includes(token));
    if (!echo) {
        throw new Error(`the floor chat's backend did not echo ${token}`);
    }
    const out = await firstRpcFrame(window, token, { after: turn.sent });
    const back = await firstRpcFrame(window, token, { after: echo.sentAt, direction: 'in' });
    floor.total.push(turn.shown - turn.sent);
    floor.echo.push(echo.sentAt - echo.receivedAt);
    floor.frontend.push(out - turn.sent);
    floor.toBackend.push(echo.receivedAt - out);
    floor.toPage.push(back - echo.sentAt);
    floor.render.push(turn.shown - back);
}

function turnFigure(agent: BenchAgent, ours: OursSamples, base: Samples<'total' | 'toAgent' | 'back'>, floor: FloorSamples): Figure {
    const measured = summarize(ours.total);
    const baseline = summarize(base.total);
    const median = (values: number[]) => round(summarize(values).median);
    // What any backend-driven chat agent of Theia AI adds to its backend's own time; ours adds to the bare client's.
    const added = measured.median - baseline.median;
    const floorAdded = summarize(floor.total).median - summarize(floor.echo).median;
    return {
        id: agent.id, title: `Prompt sent in the chat → the agent's first text shown (${agent.label})`, unit: 'ms', measured,
        baselineName: 'a bare ACP SDK client, prompt → first text chunk, same agent', baseline,
        goal: `added over the bare client ≤ ${GOAL} × the floor chat agent's added over its backend (medians)`, goalMet: added <= GOAL * floorAdded,
        notes: {
            'added (ms, median)': Math.round(added),
            'floor: a Theia AI chat agent whose backend streams the message back (test/bench-floor), Enter → shown (median / p95)':
                `${median(floor.total)} / ${round(summarize(floor.total).p95)}`,
            'floor: added over its backend\'s echo (median); ours ÷ floor': `${round(floorAdded)}; ${round(added / floorAdded)}`,
            'floor: Enter → page; → backend; → page; → shown (medians)':
                `${median(floor.frontend)}; ${median(floor.toBackend)}; ${median(floor.toPage)}; ${median(floor.render)}`,
            'ours: Enter → the prompt leaves the page (Theia AI, our chat agent; median)': median(ours.frontend),
            [`ours: page → ${agent.receivedBy} (RPC, backend: turn snapshot, ACP; median)`]: median(ours.toAgent),
            [`ours, by the backend's marks: page → backend; backend before the agent (the turn's snapshot); → ${agent.receivedBy} (medians)`]:
                `${median(ours.toBackend)}; ${median(ours.beforeAgent)}; ${median(ours.acpToAgent)}`,
            [`ours: ${agent.receivedBy} → its text arrives in the page (agent, backend, RPC; median)`]: median(ours.toPage),
            [`ours, by the backend's marks: ${agent.receivedBy} → backend; backend → page (medians)`]: `${median(ours.backToBackend)}; ${median(ours.backendToPage)}`,
            'ours: text in the page → shown (our chat client, Theia AI\'s model, rendering; median)': median(ours.render),
            [`bare: sent → ${agent.receivedBy}; → text (medians)`]: `${median(base.toAgent)}; ${median(base.back)}`,
            'the page\'s main thread in long tasks meanwhile (frames arriving wait for it; median)': median(ours.busy)
        }
    };
}

/** When the scripted agent with this log received the prompt holding `token` after `after` (its log stamps each request); Infinity if it did not. */
function promptArrival(log: string, token: string, after: number): number {
    const records = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map(line => JSON.parse(line) as { method: string; params: unknown; at?: number }) : [];
    const record = records.find(entry => entry.method === 'session/prompt' && entry.at !== undefined && entry.at >= after && JSON.stringify(entry.params).includes(token));
    return record?.at ?? Infinity;
}

/** One timed chat turn: from the Enter that sends `token` until the newest response shows it (a DOM mutation, not a poll). */
async function chatTurn(chat: AcpChat, window: TheiaWindow, agentName: string, token: string): Promise<{ sent: number; shown: number; busyMs: number }> {
    const shown = window.page.evaluate(({ expected, timeoutMs }) => new Promise<{ at: number; busyMs: number }>((resolve, reject) => {
        const view = document.querySelector('#chat-view-widget')!;
        const lastResponse = () => [...view.querySelectorAll('.theia-ChatNode[aria-label^="Response from"]')].pop();
        // The page's main thread busy with long tasks (over 50 ms each) meanwhile: frames that arrive wait for it.
        let busyMs = 0;
        const longTasks = new PerformanceObserver(list => list.getEntries().forEach(entry => busyMs += entry.duration));
        longTasks.observe({ type: 'longtask' });
        const observer = new MutationObserver(() => {
            if (lastResponse()?.textContent?.includes(expected)) {
                observer.disconnect();
                clearTimeout(timer);
                const at = performance.timeOrigin + performance.now();
                // Long tasks are reported after they end: the one that rendered the text has ended once this task does.
                setTimeout(() => {
                    longTasks.disconnect();
                    resolve({ at, busyMs });
                });
            }
        });
        const timer = setTimeout(() => {
            observer.disconnect();
            longTasks.disconnect();
            reject(new Error(`no response showed "${expected}" in ${timeoutMs} ms; the last one: ${JSON.stringify(lastResponse()?.textContent?.slice(0, 300))}`));
        }, timeoutMs);
        observer.observe(view, { subtree: true, childList: true, characterData: true });
    }), { expected: token, timeoutMs: 60000 });
    shown.catch(() => undefined);
    const response = await chat.send(`@${agentName} ${token}`, true).catch(async error => {
        throw new Error(`${error.message}: no response to the prompt to ${agentName}; ${await window.describeForFailure(`bench-turn-${agentName}`)}`);
    });
    const { at, busyMs } = await shown;
    await chat.finished(response);
    return { sent: chat.lastSentAt, shown: at, busyMs };
}

/** When the floor chat's backend had each message and sent it back, from the page (the bench-floor extension exposes them). */
function floorEchoes(theia: TheiaWindow): Promise<{ text: string; receivedAt: number; sentAt: number }[]> {
    return theia.page.evaluate(() => (window as unknown as { cliCompanionBenchFloor: { echoes(): Promise<{ text: string; receivedAt: number; sentAt: number }[]> } })
        .cliCompanionBenchFloor.echoes());
}
