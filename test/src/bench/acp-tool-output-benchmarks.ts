import * as fs from 'fs';
import * as path from 'path';
import { AcpAgent, AcpClientServices, AcpSession } from '@theia-cli-companion/acp-client/lib/node';
import { boundToolCall, boundUpdate } from '@theia-cli-companion/acp-client/lib/common';
import { Figure, now, round, summarize } from './stats';
import { FAKE_AGENT } from '../support/fake-acp-agent';

const FLOOD_LINES = 50000;
/** What a flood may cost the backend at most: its output is bounded before it is kept or sent. */
const PEAK_RSS_BOUND_MIB = 64;
const TO_WINDOW_BOUND_KIB = 64;

interface TurnCost {
    readonly ms: number;
    readonly heapRetainedMiB: number;
    readonly peakRssGrowthMiB: number;
    readonly toWindowKiB: number;
}

/**
 * A tool call printing 50,000 lines (the ACP issue's case) through the backend's side of the chat: the
 * ACP client with the chat's bounds on what is kept and sent to the window. Per turn: time from the
 * prompt to the turn's end, the peak RSS growth while it arrives, the heap it leaves after a collection
 * (with --expose-gc, as `npm run bench` runs), and the bytes that would go to the window; against a
 * short turn of the same agent, alternating.
 */
export async function benchAcpToolOutput(options: { quick: boolean; scratch: string }): Promise<Figure[]> {
    const reps = options.quick ? 1 : 8;
    fs.mkdirSync(options.scratch, { recursive: true });
    let toWindow = 0;
    const services: AcpClientServices = {
        onUpdate: (_session, update, toolCall) => {
            toWindow += JSON.stringify(boundUpdate(update)).length + JSON.stringify(toolCall ? boundToolCall(toolCall).state : {}).length;
        },
        askPermission: async () => ({ outcome: 'cancelled' }),
        readTextFile: async () => ({ content: '' }),
        writeTextFile: async () => undefined,
        terminals: {
            create: async () => { throw new Error('no terminals in this benchmark'); },
            output: async () => ({ output: '', truncated: false }),
            waitForExit: async () => ({ exitCode: 0, signal: null }),
            kill: async () => undefined,
            release: async () => undefined
        }
    };
    const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const agent = new AcpAgent({
        command: process.execPath, args: [FAKE_AGENT], cwd: options.scratch,
        env: { PATH: process.env.PATH, FAKE_AGENT_LOG: path.join(options.scratch, 'agent.jsonl') }
    }, services, quiet);
    try {
        await agent.initialize({ name: 'bench', version: '0' });
        const session = await agent.newSession({ cwd: options.scratch, mcpServers: [] });
        const turn = (text: string) => measureTurn(session, text, () => toWindow);
        const short: TurnCost[] = [];
        const flood: TurnCost[] = [];
        for (let rep = 0; rep < reps; rep++) {
            short.push(await turn('echo a short turn'));
            flood.push(await turn(`flood ${FLOOD_LINES}`));
        }
        return toolOutputFigures(short, flood);
    } finally {
        await agent.dispose();
    }
}

/** One turn's time, memory and bytes sent to the window (`sent()`: the bytes sent so far). */
async function measureTurn(session: AcpSession, text: string, sent: () => number): Promise<TurnCost> {
    const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
    collect();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    const sampler = setInterval(() => peakRss = Math.max(peakRss, process.memoryUsage().rss), 2);
    const sentBefore = sent();
    const t0 = now();
    const response = await session.prompt([{ type: 'text', text }]);
    const ms = now() - t0;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (response.stopReason !== 'end_turn') {
        throw new Error(`the turn "${text}" ended ${response.stopReason}`);
    }
    collect();
    const mib = (bytes: number) => bytes / 1048576;
    return {
        ms, heapRetainedMiB: mib(process.memoryUsage().heapUsed - before.heapUsed), peakRssGrowthMiB: mib(peakRss - before.rss),
        toWindowKiB: (sent() - sentBefore) / 1024
    };
}

/** The flood turns' time and memory figures, against the short turns'. */
function toolOutputFigures(short: TurnCost[], flood: TurnCost[]): Figure[] {
    const of = (costs: TurnCost[], key: keyof TurnCost) => summarize(costs.map(cost => cost[key]));
    const peak = of(flood, 'peakRssGrowthMiB');
    const sent = of(flood, 'toWindowKiB');
    return [{
        id: 'acp-tool-output-time',
        title: `ACP turn with a ${FLOOD_LINES.toLocaleString('en')}-line tool output, backend side: prompt → turn ended`,
        unit: 'ms',
        measured: of(flood, 'ms'),
        baselineName: 'a short turn of the same agent',
        baseline: of(short, 'ms'),
        notes: { 'output size (KiB)': round(Array.from({ length: FLOOD_LINES }, (_, i) => `output line ${i + 1}`).join('\n').length / 1024, 0) }
    }, {
        id: 'acp-tool-output-memory',
        title: `ACP turn with a ${FLOOD_LINES.toLocaleString('en')}-line tool output, backend side: peak RSS growth while it arrives`,
        unit: 'MiB',
        measured: peak,
        baselineName: 'a short turn of the same agent',
        baseline: of(short, 'peakRssGrowthMiB'),
        goal: `bounded: peak growth ≤ ${PEAK_RSS_BOUND_MIB} MiB, ≤ ${TO_WINDOW_BOUND_KIB} KiB sent to the window`,
        goalMet: peak.p95 <= PEAK_RSS_BOUND_MIB && sent.p95 <= TO_WINDOW_BOUND_KIB,
        notes: {
            'heap retained after the turn (MiB, median)': round(of(flood, 'heapRetainedMiB').median),
            'sent to the window (KiB, median; short turn)': `${round(sent.median, 1)}; ${round(of(short, 'toWindowKiB').median, 1)}`
        }
    }];
}
