import * as acp from '@agentclientprotocol/sdk';
import { ChildProcessByStdio, spawn } from 'child_process';
import * as path from 'path';
import { Readable, Writable } from 'stream';
import { AcpChat } from '../acp-chat-view';
import { trackProcess } from '../processes';
import { Sandbox } from '../sandbox';
import { REPO_ROOT, TheiaBackend } from '../theia-backend';
import { TheiaWindow } from '../theia-window';
import { Figure, now, summarize } from './stats';

/** The scripted ACP agent of the tests: it answers a prompt by streaming its text back. */
export const FAKE_AGENT = path.join(REPO_ROOT, 'packages', 'acp-client', 'lib', 'node', 'test', 'fake-acp-agent-main.js');
export const FAKE_AGENT_NAME = 'BenchFake';

/** The chat's agent setting for the scripted agent (its log goes into the sandbox). */
export function fakeAgentSetting(sandbox: Sandbox): Record<string, unknown> {
    const env = { FAKE_AGENT_LOG: path.join(sandbox.tmp, 'bench-chat-agent.jsonl') };
    return { 'aiCliCompanion.acp.agents': [{ name: FAKE_AGENT_NAME, command: process.execPath, args: [FAKE_AGENT], env }] };
}
const GOAL = 1.2;

/** The same agent driven by a bare ACP SDK client: spawn, initialize, one session; each prompt timed to its first text chunk. */
class BareAcpClient {
    protected readonly child: ChildProcessByStdio<Writable, Readable, null>;
    protected connection: ReturnType<acp.ClientApp['connect']>;
    protected sessionId = '';
    protected firstText?: (text: string) => void;

    constructor(agentLog: string) {
        this.child = spawn(process.execPath, [FAKE_AGENT], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, FAKE_AGENT_LOG: agentLog } });
    }

    async open(cwd: string): Promise<void> {
        trackProcess(this.child.pid!);
        const stream = acp.ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>);
        this.connection = acp.client({ name: 'bench-bare-client' })
            .onNotification(acp.methods.client.session.update, ({ params }) => {
                if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text') {
                    this.firstText?.(params.update.content.text);
                }
            })
            .onRequest(acp.methods.client.session.requestPermission, async () => ({ outcome: { outcome: 'cancelled' } }))
            .connect(stream);
        await this.connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
        this.sessionId = (await this.connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId;
    }

    /** ms from sending the prompt to its first text chunk. */
    async turn(text: string): Promise<number> {
        const t0 = now();
        const arrived = new Promise<number>(resolve => this.firstText = chunk => chunk.includes(text) && resolve(now()));
        const done = this.connection.agent.request(acp.methods.agent.session.prompt, { sessionId: this.sessionId, prompt: [{ type: 'text', text }] });
        const t1 = await arrived;
        await done;
        return t1 - t0;
    }

    async close(): Promise<void> {
        this.child.kill();
        await new Promise(resolve => this.child.exitCode !== null ? resolve(undefined) : this.child.once('exit', resolve));
    }
}

/**
 * A chat turn's overhead: from Enter in Theia AI's chat to the agent's first text shown in the response,
 * against a bare ACP SDK client sending the same prompt to the same agent, alternating. Both sessions are
 * started before the first timed turn (an agent's start is not a turn's cost).
 */
export async function benchAcpTurn(options: { quick: boolean; sandbox: Sandbox; workspace: string }, window: TheiaWindow, backend: TheiaBackend): Promise<Figure> {
    const rounds = options.quick ? 2 : 20;
    const chat = new AcpChat(window, backend);
    await chat.newChat();
    await chat.finished(await chat.send(`@${FAKE_AGENT_NAME} warm-up`, true));
    const bare = new BareAcpClient(path.join(options.sandbox.tmp, 'bench-bare-agent.jsonl'));
    await bare.open(options.workspace);
    const ours: number[] = [];
    const base: number[] = [];
    try {
        await bare.turn('warm-up');
        for (let round = 0; round < rounds; round++) {
            const token = `ping-${round}-${Date.now()}`;
            base.push(await bare.turn(token));
            ours.push(await chatTurn(chat, window, token));
        }
    } finally {
        await bare.close();
    }
    const measured = summarize(ours);
    const baseline = summarize(base);
    return {
        id: 'acp-turn-fake', title: 'Prompt sent in the chat → the agent\'s first text shown (scripted ACP agent)', unit: 'ms', measured,
        baselineName: 'a bare ACP SDK client, prompt → first text chunk, same agent', baseline,
        goal: `≤ ${GOAL} × the bare client (median)`, goalMet: measured.median <= GOAL * baseline.median,
        notes: { 'added (ms, median)': Math.round(measured.median - baseline.median) }
    };
}

/** One timed chat turn: from the Enter that sends `token` until the newest response shows it (a DOM mutation, not a poll). */
async function chatTurn(chat: AcpChat, window: TheiaWindow, token: string): Promise<number> {
    const shown = window.page.evaluate(expected => new Promise<number>(resolve => {
        const view = document.querySelector('#chat-view-widget')!;
        const observer = new MutationObserver(() => {
            const responses = view.querySelectorAll('.theia-ChatNode[aria-label^="Response from"]');
            if (responses[responses.length - 1]?.textContent?.includes(expected)) {
                observer.disconnect();
                resolve(performance.timeOrigin + performance.now());
            }
        });
        observer.observe(view, { subtree: true, childList: true, characterData: true });
    }), token);
    const response = await chat.send(`@${FAKE_AGENT_NAME} ${token}`, true);
    const t1 = await shown;
    await chat.finished(response);
    return t1 - chat.lastSentAt;
}
