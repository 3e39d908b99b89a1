import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { Container } from '@theia/core/shared/inversify';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { ILogger } from '@theia/core/lib/common/logger';
import { CliFlavour, GeminiCliFlavour, QwenCodeFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { createWindowServer, WindowServer } from '@theia-cli-companion/ide-companion-server/lib/node/window';
import { WindowServerRegistry, WindowLogger, WindowModuleContribution } from '@theia-cli-companion/ai-cli-core/lib/node';
import { IdeProbe } from '../hosts/ide-probe';
import { BareMcpServer } from './bare-mcp-server';
import { Figure, now, round, sleep, summarize } from './stats';

export interface ServerBenchOptions {
    readonly quick: boolean;
    /** A scratch folder: the workspace root the windows advertise. */
    readonly workspace: string;
}

const silent: WindowLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** An MCP SDK client that counts the notifications it receives. */
interface CountingClient {
    readonly client: Client;
    received: number;
}

async function connect(port: number, token?: string): Promise<CountingClient> {
    const client = new Client({ name: 'bench-client', version: '1.0.0' });
    const counting: CountingClient = { client, received: 0 };
    client.fallbackNotificationHandler = async () => {
        counting.received++;
    };
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers } }));
    return counting;
}

async function until(condition: () => boolean, what: string, timeoutMs = 20000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`benchmark timed out waiting for ${what}`);
        }
        await new Promise(resolve => setImmediate(resolve));
    }
}

function newWindow(index: number): WindowServer {
    return createWindowServer({
        windowId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        flavours: [GeminiCliFlavour, QwenCodeFlavour], logger: silent, serverPid: process.pid
    });
}

/**
 * Requests per second over one session, and the latency of one request: the companion's window
 * server (Host/Origin/token checks, per-flavour secrets) against the bare SDK server, alternating
 * rounds so that drift on a shared machine hits both alike.
 */
/** The backend's window registry as the app builds it, with these flavours contributed (as IDE mode does). */
function registryWithFlavours(...flavours: CliFlavour[]): WindowServerRegistry {
    const container = new Container();
    container.bind(ILogger).toConstantValue(silent as unknown as ILogger);
    bindContributionProvider(container.bind.bind(container), WindowModuleContribution);
    container.bind(WindowModuleContribution).toConstantValue({ flavours });
    container.bind(WindowServerRegistry).toSelf().inSingletonScope();
    return container.get(WindowServerRegistry);
}

export async function benchThroughput(options: ServerBenchOptions): Promise<Figure[]> {
    const window = newWindow(1);
    await window.start([options.workspace]);
    const bare = new BareMcpServer();
    await bare.start();
    const ours = await connect(window.server.port, window.endpointFor('gemini').authToken);
    const theirs = await connect(bare.port);
    const call = (client: Client) => client.callTool({ name: 'closeDiff', arguments: { filePath: path.join(options.workspace, 'none.txt') } });
    const batch = 50;
    const rounds = options.quick ? 1 : 4;
    const roundMs = options.quick ? 600 : 5000;
    const rates = { ours: [] as number[], bare: [] as number[] };
    const latencies = { ours: [] as number[], bare: [] as number[] };
    try {
        for (let i = 0; i < 100; i++) {
            await call(ours.client);
            await call(theirs.client);
        }
        // Batches alternate, so that a busy moment on a shared machine hits both servers alike.
        for (let round = 0; round < rounds; round++) {
            const end = Date.now() + roundMs;
            while (Date.now() < end) {
                for (const [name, client] of [['ours', ours.client], ['bare', theirs.client]] as const) {
                    const started = now();
                    for (let i = 0; i < batch; i++) {
                        const t0 = now();
                        await call(client);
                        latencies[name].push(now() - t0);
                    }
                    rates[name].push(batch / ((now() - started) / 1000));
                }
            }
        }
    } finally {
        await ours.client.close();
        await theirs.client.close();
        await window.stop();
        await bare.stop();
    }
    return throughputFigures(rates, latencies);
}

/** The throughput and latency figures of both servers' alternating batches. */
function throughputFigures(rates: Record<'ours' | 'bare', number[]>, latencies: Record<'ours' | 'bare', number[]>): Figure[] {
    const oursRate = summarize(rates.ours);
    const bareRate = summarize(rates.bare);
    const oursLatency = summarize(latencies.ours);
    const bareLatency = summarize(latencies.bare);
    return [{
        id: 'server-throughput',
        title: 'MCP requests per second, one session (tools/call closeDiff)',
        unit: 'req/s',
        measured: oursRate,
        baselineName: 'bare @modelcontextprotocol/sdk Streamable HTTP server',
        baseline: bareRate,
        goal: '≥ 0.9 × the bare SDK server (median)',
        goalMet: oursRate.median >= 0.9 * bareRate.median
    }, {
        id: 'server-request-latency',
        title: 'Latency of one MCP request (auth, Host and Origin checks included)',
        unit: 'ms',
        measured: oursLatency,
        baselineName: 'bare @modelcontextprotocol/sdk Streamable HTTP server',
        baseline: bareLatency,
        notes: { 'added latency, median (ms)': round(oursLatency.median - bareLatency.median, 3) }
    }];
}

function contextPayload(file: string, line: number): Record<string, unknown> {
    return { workspaceState: { openFiles: [{ path: file, timestamp: line, isActive: true, cursor: { line, character: 1 } }], isTrusted: true } };
}

/** Time from one editor state change until every connected CLI session has received it. */
export async function benchFanOut(options: ServerBenchOptions): Promise<Figure[]> {
    const figures: Figure[] = [];
    const file = path.join(options.workspace, 'fan-out.ts');
    for (const sessions of [1, 10, 50]) {
        const window = newWindow(100 + sessions);
        await window.start([options.workspace]);
        const bare = new BareMcpServer();
        await bare.start();
        const token = window.endpointFor('gemini').authToken;
        const ours: CountingClient[] = [];
        const theirs: CountingClient[] = [];
        for (let i = 0; i < sessions; i++) {
            ours.push(await connect(window.server.port, token));
            theirs.push(await connect(bare.port));
        }
        const reps = options.quick ? 5 : 40;
        const samples = { ours: [] as number[], bare: [] as number[] };
        let line = 1;
        const pushOurs = () => window.setEditorState({
            isTrusted: true, openFiles: [{ uri: FileUri.create(file).toString(), timestamp: line, isActive: true, cursor: { line, character: 1 } }]
        });
        const pushBare = () => bare.notifyAll('ide/contextUpdate', contextPayload(file, line));
        try {
            // The SSE streams open just after connecting: wait until each client has received something.
            await warmUp(ours, () => { line++; return pushOurs(); });
            await warmUp(theirs, () => { line++; return pushBare(); });
            for (let rep = 0; rep < reps; rep++) {
                for (const [name, clients, push] of [['ours', ours, pushOurs], ['bare', theirs, pushBare]] as const) {
                    line++;
                    const before = clients.map(client => client.received);
                    const t0 = now();
                    await push();
                    await until(() => clients.every((client, i) => client.received > before[i]), `${sessions} sessions to receive an update`);
                    samples[name].push(now() - t0);
                }
            }
        } finally {
            await Promise.all([...ours, ...theirs].map(client => client.client.close().catch(() => undefined)));
            await window.stop();
            await bare.stop();
        }
        figures.push({
            id: `fan-out-${sessions}`,
            title: `Context update reaches all of ${sessions} connected session${sessions > 1 ? 's' : ''} of one window`,
            unit: 'ms',
            measured: summarize(samples.ours),
            baselineName: 'the same notification from a bare SDK server to as many sessions',
            baseline: summarize(samples.bare)
        });
    }
    return figures;
}

/**
 * The client's share of a context update: from our backend's setEditorState to the real Gemini
 * IdeClient in a process of its own (the probe, connected from the window's terminal environment),
 * against an MCP SDK client in this process receiving the same update, from the same push.
 */
export async function benchIdeClientShare(options: ServerBenchOptions & { env: NodeJS.ProcessEnv }): Promise<Figure> {
    const reps = options.quick ? 5 : 40;
    // A file that exists: the companion lists only editors of files inside the workspace folders.
    const file = path.join(options.workspace, 'client-share.ts');
    fs.writeFileSync(file, 'export {};\n');
    const window = newWindow(200);
    await window.start([options.workspace]);
    const sdkClient = await connect(window.server.port, window.endpointFor('gemini').authToken);
    // Straight to loopback, as on a Linux box: in a container the CLI would dial host.docker.internal and
    // take the stdio relay (the browser benchmark's path here), unless told it runs in a dev container.
    const probe = new IdeProbe('gemini', { ...options.env, ...window.terminalEnvironment(), REMOTE_CONTAINERS: 'true' }, options.workspace);
    let arrived = { at: 0, line: 0 };
    let line = 1;
    const push = () => window.setEditorState({
        isTrusted: true, openFiles: [{ uri: FileUri.create(file).toString(), timestamp: line, isActive: true, cursor: { line, character: 1 } }]
    });
    const samples = { ideClient: [] as number[], sdkClient: [] as number[] };
    try {
        const report = await probe.connected();
        if (report.status.status !== 'connected') {
            throw new Error(`the IdeClient did not connect: ${JSON.stringify(report)}`);
        }
        probe.watchContext(update => arrived = { at: update.at, line: cursorLine(update.context) ?? 0 });
        await warmUp([sdkClient], () => { line++; return push(); });
        for (let rep = 0; rep < reps; rep++) {
            line++;
            const before = sdkClient.received;
            const t0 = now();
            await push();
            await until(() => sdkClient.received > before, 'the SDK client to receive the update');
            samples.sdkClient.push(now() - t0);
            await untilAsync(() => arrived.line === line, 'the IdeClient to receive the update');
            samples.ideClient.push(arrived.at - t0);
        }
    } finally {
        await probe.close();
        await sdkClient.client.close().catch(() => undefined);
        await window.stop();
    }
    return {
        id: 'context-client-share',
        title: 'Context update from our backend → the real Gemini IdeClient in its own process (straight over loopback HTTP)',
        unit: 'ms',
        measured: summarize(samples.ideClient),
        baselineName: 'the same update → an MCP SDK client in the backend\'s process',
        baseline: summarize(samples.sdkClient)
    };
}

const cursorLine = (context: unknown): number | undefined =>
    (context as { workspaceState?: { openFiles?: Array<{ cursor?: { line: number } }> } } | undefined)?.workspaceState?.openFiles?.[0]?.cursor?.line;

/** Waits for something another process reports (its lines arrive on this event loop's I/O phase). */
async function untilAsync(condition: () => boolean, what: string, timeoutMs = 20000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`benchmark timed out waiting for ${what}`);
        }
        await new Promise(resolve => setTimeout(resolve, 0));
    }
}

/** The SSE streams open just after connecting: push until every client has received something. */
async function warmUp(clients: CountingClient[], push: () => Promise<unknown>): Promise<void> {
    const deadline = Date.now() + 20000;
    while (!clients.every(client => client.received > 0)) {
        if (Date.now() > deadline) {
            throw new Error('benchmark timed out waiting for the sessions\' event streams');
        }
        await push();
        await new Promise(resolve => setTimeout(resolve, 50));
    }
}

/**
 * Live memory after a full GC: the JS heap plus memory held outside it (buffers, sockets). RSS is
 * reported beside it but moves in pages and shrinks when the GC returns memory, so it cannot tell
 * a few hundred KiB per window apart.
 */
function memoryMiB(): { live: number; rss: number } {
    const gc = (global as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const usage = process.memoryUsage();
    return { live: (usage.heapUsed + usage.external) / (1024 * 1024), rss: usage.rss / (1024 * 1024) };
}

function countFiles(dir: string): number {
    return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
}

/**
 * What a window costs the backend: the companion's real registry (the class the Theia backend
 * binds) attaching 1, 10 and 30 windows in this process, against as many bare SDK servers.
 */
export async function benchWindows(options: ServerBenchOptions): Promise<Figure[]> {
    const figures: Figure[] = [];
    const reps = options.quick ? 1 : 3;
    const geminiDir = path.join(GeminiCliFlavour.discoveryDirectory());
    const qwenDir = path.join(QwenCodeFlavour.discoveryDirectory());
    // One unrecorded round first: module-level caches and the previous benchmark's closing sockets
    // would otherwise be counted against (or for) the first window.
    for (const count of [3, 1, 10, 30]) {
        const recorded = count !== 3;
        const samples = { ours: [] as number[], bare: [] as number[] };
        const rss: number[] = [];
        let files = 0;
        let ports = 0;
        for (let rep = 0; rep < reps; rep++) {
            const registry = registryWithFlavours(GeminiCliFlavour, QwenCodeFlavour);
            registry.initialize();
            const owners = Array.from({ length: count }, () => ({}));
            await sleep(100);
            const before = memoryMiB();
            const windows = [];
            for (const owner of owners) {
                windows.push(await registry.attach(owner, [options.workspace], ['gemini', 'qwen']));
            }
            const after = memoryMiB();
            samples.ours.push((after.live - before.live) / count);
            rss.push((after.rss - before.rss) / count);
            files = countFiles(geminiDir) + countFiles(qwenDir);
            ports = new Set(windows.map(window => window.server.port)).size;
            await Promise.all(owners.map(owner => registry.release(owner)));
            await registry.onStop();

            await sleep(100);
            const bareBefore = memoryMiB().live;
            const servers = [];
            for (let i = 0; i < count; i++) {
                const server = new BareMcpServer();
                await server.start();
                servers.push(server);
            }
            samples.bare.push((memoryMiB().live - bareBefore) / count);
            await Promise.all(servers.map(server => server.stop()));
        }
        if (!recorded) {
            continue;
        }
        const measured = summarize(samples.ours);
        figures.push({
            id: `windows-${count}`,
            title: `Backend memory per window with ${count} window${count > 1 ? 's' : ''} (live heap + external growth / windows)`,
            unit: 'MiB',
            measured,
            baselineName: 'as many bare SDK servers (listening, no session)',
            baseline: summarize(samples.bare),
            goal: '< 5 MiB per window',
            goalMet: measured.median < 5,
            notes: {
                'discovery files': files, ports, 'RSS growth per window, median (MiB)': round(summarize(rss).median, 3),
                gc: typeof (global as { gc?: unknown }).gc === 'function' ? 'forced before each reading' : 'not available (run node with --expose-gc)'
            }
        });
    }
    return figures;
}
