import { ChildProcess, spawn } from 'child_process';
import * as http from 'http';
import * as readline from 'readline';
import { AddressInfo } from 'net';
import { BENCH_FLOOR_EVENTS_ROUTE, BENCH_FLOOR_GLOBAL } from '@theia-cli-companion/bench-floor/lib/common';
import { IdeProbe } from '../hosts/ide-probe';
import { trackProcess, until } from '../support/processes';
import { TheiaWindow } from '../hosts/theia-window';
import { firstRpcFrame, watchRpcFrames } from './page-rpc-marks';
import { markAt, takeBackendMarks } from './timing-marks';
import { Figure, now, round, sleep, Summary, summarize } from './stats';

type OpenFile = { path: string; cursor?: { line: number } };
export const activeCursorLine = (context: unknown): number | undefined =>
    ((context as { workspaceState?: { openFiles?: OpenFile[] } } | undefined)?.workspaceState?.openFiles?.[0]?.cursor?.line);

/** The RPC method our frontend sends editor state with, and the floor's: what the page's frame marks look for. */
const OUR_METHOD = 'updateEditorState';
const FLOOR_METHOD = 'pushPayload';

/**
 * An SSE client in a process of its own that prints when each event arrived (after parsing it, as a
 * client must): the far end of both baselines.
 */
export class SseArrivals {
    protected readonly child: ChildProcess;
    protected readonly arrivals: number[] = [];
    protected waiter?: () => void;
    protected timeout?: ReturnType<typeof setTimeout>;
    protected connected = false;

    constructor(protected readonly url: string) {
        const client = `
            const http = require('http');
            http.get(${JSON.stringify(url)}, res => {
                if (res.statusCode !== 200) { console.error('SSE answered ' + res.statusCode); process.exit(2); }
                process.stdout.write('connected\\n');
                let buffer = '';
                res.setEncoding('utf8');
                res.on('data', chunk => {
                    buffer += chunk;
                    let end;
                    while ((end = buffer.indexOf('\\n\\n')) >= 0) {
                        const event = buffer.slice(0, end);
                        buffer = buffer.slice(end + 2);
                        JSON.parse(event.replace(/^data: /, ''));
                        process.stdout.write(String(performance.timeOrigin + performance.now()) + '\\n');
                    }
                });
            });`;
        this.child = spawn(process.execPath, ['-e', client], { stdio: ['ignore', 'pipe', 'inherit'] });
        trackProcess(this.child.pid!);
        readline.createInterface({ input: this.child.stdout! }).on('line', line => {
            if (line === 'connected') {
                this.connected = true;
                return;
            }
            this.arrivals.push(Number(line));
            this.waiter?.();
        });
    }

    connectedNow(): boolean {
        return this.connected;
    }

    /** Resolves with the arrival time of the next event; rejects when none comes within `timeoutMs` (a floor that stopped sending). */
    next(timeoutMs = 20000): Promise<number> {
        const count = this.arrivals.length;
        clearTimeout(this.timeout);
        return new Promise((resolve, reject) => {
            this.timeout = setTimeout(() => reject(new Error(`no event from ${this.url} within ${timeoutMs} ms`)), timeoutMs);
            this.waiter = () => {
                if (this.arrivals.length > count) {
                    clearTimeout(this.timeout);
                    resolve(this.arrivals[count]);
                }
            };
        });
    }

    close(): void {
        // A wait still open ends with the client, not 20 s later as an unhandled rejection.
        clearTimeout(this.timeout);
        this.child.kill('SIGKILL');
    }
}

/** A bare SSE stream on loopback from this process to a client in another: no IDE, no RPC. */
class BareSseLink {
    protected readonly server: http.Server;
    protected response?: http.ServerResponse;
    protected client?: SseArrivals;

    constructor() {
        this.server = http.createServer((_request, response) => {
            response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
            response.flushHeaders();
            this.response = response;
        });
    }

    async open(): Promise<void> {
        await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
        this.client = new SseArrivals(`http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`);
        await until(() => this.response && this.client!.connectedNow(), 'the bare SSE client to connect', 10000);
    }

    async send(payload: object): Promise<number> {
        const arrived = this.client!.next();
        const t0 = now();
        this.response!.write(`data: ${JSON.stringify(payload)}\n\n`);
        return await arrived - t0;
    }

    close(): void {
        this.client?.close();
        this.response?.end();
        this.server.closeAllConnections();
        this.server.close();
    }
}

const medianOf = (samples: readonly number[]) => round(summarize(samples).median);

export interface ContextLatencyOptions {
    readonly quick: boolean;
    /** The backend's URL: the floor's SSE route is on Theia's own server. */
    readonly backendUrl: string;
    /** The configured `aiCliCompanion.context.debounceMs`, subtracted from our figure. */
    readonly debounceMs: number;
}

/**
 * From a cursor move in the browser to the real Gemini IdeClient holding the new context, minus the
 * debounce the user configured; against the floor any browser IDE extension must take with the same
 * payload on the same key press: sent from the page over Theia's own RPC to the backend at once and
 * pushed over SSE to a client in another process (the bench-floor extension, in the same window).
 * Both are broken down where the RPC frame leaves the page. With `loopbackProbe` (a second IdeClient
 * told to dial loopback, as outside a container), the same key press is timed to both clients.
 */
export async function benchContextLatency(options: ContextLatencyOptions, window: TheiaWindow, probe: IdeProbe, loopbackProbe?: IdeProbe): Promise<Figure[]> {
    const reps = options.quick ? 5 : 60;
    const probes = [probe, ...(loopbackProbe ? [loopbackProbe] : [])];
    const latest = probes.map(() => ({ at: 0, line: undefined as number | undefined, context: undefined as unknown }));
    probes.forEach((each, i) => each.watchContext(update => latest[i] = { at: update.at, line: activeCursorLine(update.context), context: update.context }));
    await window.openFile('bench/context.ts');
    await window.goTo(1, 1);
    await until(() => latest.every(arrival => arrival.line === 1), 'the CLI to see line 1', 20000);
    await until(() => window.page.evaluate(name => name in window, BENCH_FLOOR_GLOBAL), 'the bench floor in the page (an app with @theia-cli-companion/bench-floor)', 10000);
    const transports = await Promise.all(probes.map(async each => (await each.status()).transport));
    const floorClient = new SseArrivals(options.backendUrl + BENCH_FLOOR_EVENTS_ROUTE);
    const ours = probes.map(() => ({ total: [] as number[], afterFrame: [] as number[], afterSent: [] as number[] }));
    const backend = { toBackend: [] as number[], ours: [] as number[], write: [] as number[] };
    const frontend: number[] = [];
    const floor = { total: [] as number[], frontend: [] as number[], afterFrame: [] as number[] };
    const bare: number[] = [];
    const bareLink = new BareSseLink();
    const followCursor = (on: boolean) => window.page.evaluate(([name, follow]) =>
        (window as unknown as Record<string, { followCursor(on: boolean): void }>)[name as string].followCursor(follow as boolean), [BENCH_FLOOR_GLOBAL, on] as const);
    try {
        await until(() => floorClient.connectedNow(), 'the floor\'s SSE client to connect', 10000);
        await bareLink.open();
        await followCursor(true);
        for (let rep = 0; rep < reps; rep++) {
            const line = rep + 2;
            await watchRpcFrames(window, [OUR_METHOD, FLOOR_METHOD]);
            await takeBackendMarks(window);
            const floorArrived = floorClient.next();
            const t0 = now();
            await window.page.keyboard.press('ArrowDown');
            await until(() => latest.every(arrival => arrival.line === line), `the CLI to see line ${line}`, 20000, 1);
            const frame = await firstRpcFrame(window, OUR_METHOD);
            frontend.push(frame - t0 - options.debounceMs);
            const sent = await splitByBackendMarks(window, frame, backend);
            latest.forEach((arrival, i) => {
                ours[i].total.push(arrival.at - t0 - options.debounceMs);
                ours[i].afterFrame.push(arrival.at - frame);
                ours[i].afterSent.push(arrival.at - sent);
            });
            const floorFrame = await firstRpcFrame(window, FLOOR_METHOD);
            const floorAt = await floorArrived;
            floor.total.push(floorAt - t0);
            floor.frontend.push(floorFrame - t0);
            floor.afterFrame.push(floorAt - floorFrame);
            const payload = latest[0].context as object;
            bare.push(await bareLink.send(payload));
            await sleep(options.debounceMs);
        }
    } finally {
        await followCursor(false);
        floorClient.close();
        bareLink.close();
    }
    return contextLatencyFigures(options.debounceMs, { transports, ours, frontend, floor, bare, backend });
}

/** Where our backend had the update our frame brought, passed it to the MCP sessions and had written it: adds the three spans, answers when it was written. */
async function splitByBackendMarks(window: TheiaWindow, frame: number, backend: ContextLatencySamples['backend']): Promise<number> {
    const marks = await takeBackendMarks(window);
    const received = markAt(marks, 'context:received', frame);
    const toSessions = markAt(marks, 'context:to-sessions', received);
    const sent = markAt(marks, 'context:sent', toSessions);
    backend.toBackend.push(received - frame);
    backend.ours.push(toSessions - received);
    backend.write.push(sent - toSessions);
    return sent;
}

/** The samples of the context latency benchmark: ours (per probe, after the debounce), the floor's and a bare SSE link's. */
interface ContextLatencySamples {
    readonly transports: ('http' | 'stdio')[];
    readonly ours: { total: number[]; afterFrame: number[]; afterSent: number[] }[];
    /** By the backend's timing marks: the frame → our RPC handler; our handler → the MCP sessions; writing to them. */
    readonly backend: { toBackend: number[]; ours: number[]; write: number[] };
    readonly frontend: number[];
    readonly floor: { total: number[]; frontend: number[]; afterFrame: number[] };
    readonly bare: number[];
}

/** One figure per probe: ours against the floor, broken down where the RPC frame leaves the page. */
function contextLatencyFigures(debounceMs: number, { transports, ours, frontend, floor, bare, backend }: ContextLatencySamples): Figure[] {
    const baseline: Summary = summarize(floor.total);
    const describe = (transport: 'http' | 'stdio') => transport === 'stdio'
        ? 'through the stdio relay (the CLI\'s way in a container: host.docker.internal fails, the discovery file\'s stdio command is next)'
        : 'straight over loopback HTTP';
    return transports.map((transport, i) => {
        const measured = summarize(ours[i].total);
        return {
            id: i === 0 ? 'context-latency' : 'context-latency-loopback',
            title: `Cursor move in the browser → ide/contextUpdate in the real IdeClient ${describe(transport)}, minus the ${debounceMs} ms debounce`,
            unit: 'ms',
            measured,
            baselineName: 'the same key press → the payload from the page over Theia\'s RPC at once, pushed over SSE to another process (bench-floor)',
            baseline,
            goal: 'p95 within 1.5 × the floor',
            goalMet: measured.p95 <= 1.5 * baseline.p95,
            notes: {
                'ours: key → RPC frame leaves the page, minus debounce (median)': medianOf(frontend),
                'ours: frame → IdeClient (RPC, backend, SSE, client; median)': medianOf(ours[i].afterFrame),
                'ours, by the backend\'s marks: frame → our handler (Theia\'s RPC); → the MCP sessions (our checks); written (MCP SDK); → IdeClient (medians)':
                    `${medianOf(backend.toBackend)}; ${medianOf(backend.ours)}; ${medianOf(backend.write)}; ${medianOf(ours[i].afterSent)}`,
                'floor: key → frame (median)': medianOf(floor.frontend),
                'floor: frame → SSE client (median)': medianOf(floor.afterFrame),
                'bare loopback SSE, no IDE (median / p95)': `${medianOf(bare)} / ${round(summarize(bare).p95)}`
            }
        };
    });
}
