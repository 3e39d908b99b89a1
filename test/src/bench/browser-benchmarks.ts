import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import * as readline from 'readline';
import { AddressInfo } from 'net';
import { launchBrowser, waitForWorkbench } from '../browser';
import { IdeProbe } from '../ide-probe';
import { trackProcess, until } from '../processes';
import { Sandbox, updateTheiaSettings } from '../sandbox';
import { TheiaBackend } from '../theia-backend';
import { TheiaWindow } from '../theia-window';
import { Figure, now, round, sleep, summarize } from './stats';
import { BenchApp, OUR_EXTENSIONS, OurExtension, startupApps } from './bench-apps';

export interface BrowserBenchOptions {
    readonly quick: boolean;
    readonly sandbox: Sandbox;
    readonly workspace: string;
    readonly backend: TheiaBackend;
    /** The configured `aiCliCompanion.context.debounceMs`, subtracted from the context latency. */
    readonly debounceMs: number;
}

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';
/** 64-byte lines; names that Quick Open's fuzzy match cannot confuse with each other. */
const DIFF_SIZES = [
    { id: '1k', label: '1 KiB', name: 'one-kib', lines: 16 },
    { id: '100k', label: '100 KiB', name: 'hundred-kib', lines: 1600 },
    { id: '1m', label: '1 MiB', name: 'one-mib', lines: 16384 }
];
/** The goal for proposals up to 1 MiB: at most this many times what opening the file in a plain editor takes. */
const DIFF_GOAL = 1.5;

type OpenFile = { path: string; cursor?: { line: number } };
const activeCursorLine = (context: unknown): number | undefined =>
    ((context as { workspaceState?: { openFiles?: OpenFile[] } } | undefined)?.workspaceState?.openFiles?.[0]?.cursor?.line);

/** The files the browser benchmarks use, written into the workspace before the backend starts. */
export function benchmarkFiles(): Record<string, string> {
    const lines = (count: number, width: number) => Array.from({ length: count }, (_, i) => `// line ${i + 1} `.padEnd(width, 'x')).join('\n') + '\n';
    return {
        'bench/context.ts': lines(400, 40),
        'bench/big.ts': lines(10000, 60),
        ...Object.fromEntries(DIFF_SIZES.flatMap(size => [
            [`bench/diff-${size.name}.txt`, lines(size.lines, 63)],
            [`bench/plain-${size.name}.txt`, lines(size.lines, 63)]
        ]))
    };
}

/**
 * A bare SSE stream on loopback to a client in another process: the floor under any context
 * update that crosses a process boundary over HTTP, with the same payload.
 */
class BareSseLink {
    protected server: http.Server;
    protected response?: http.ServerResponse;
    protected child: ChildProcess;
    protected readonly arrivals: number[] = [];
    protected waiter?: () => void;

    async open(): Promise<void> {
        this.server = http.createServer((_req, res) => {
            res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
            res.flushHeaders();
            this.response = res;
        });
        await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
        const port = (this.server.address() as AddressInfo).port;
        const client = `
            const http = require('http');
            http.get('http://127.0.0.1:${port}/', res => {
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
            this.arrivals.push(Number(line));
            this.waiter?.();
        });
        await until(() => this.response, 'the bare SSE client to connect', 10000);
    }

    /** Sends one event; resolves with its latency in ms. */
    async send(payload: object): Promise<number> {
        const count = this.arrivals.length;
        const arrived = new Promise<void>(resolve => this.waiter = resolve);
        const t0 = now();
        this.response!.write(`data: ${JSON.stringify(payload)}\n\n`);
        await arrived;
        return this.arrivals[count] - t0;
    }

    close(): void {
        this.child.kill('SIGKILL');
        this.response?.end();
        this.server.closeAllConnections();
        this.server.close();
    }
}

/**
 * From a cursor move in the browser to the real Gemini IdeClient holding the new context, minus
 * the debounce the user configured; against the same payload over a bare loopback SSE stream.
 */
export async function benchContextLatency(options: BrowserBenchOptions, window: TheiaWindow, probe: IdeProbe): Promise<Figure> {
    const reps = options.quick ? 5 : 60;
    let latest: { at: number; line?: number } = { at: 0 };
    probe.watchContext(update => latest = { at: update.at, line: activeCursorLine(update.context) });
    await window.openFile('bench/context.ts');
    await window.goTo(1, 1);
    await until(() => latest.line === 1, 'the CLI to see line 1', 20000);
    const samples: number[] = [];
    let lastPayload: object = {};
    for (let rep = 0; rep < reps; rep++) {
        const line = rep + 2;
        const t0 = now();
        await window.page.keyboard.press('ArrowDown');
        await until(() => latest.line === line, `the CLI to see line ${line}`, 20000, 1);
        samples.push(latest.at - t0 - options.debounceMs);
        lastPayload = {
            workspaceState: {
                openFiles: [{ path: path.join(options.workspace, 'bench/context.ts'), timestamp: Date.now(), isActive: true, cursor: { line, character: 1 } }],
                isTrusted: true
            }
        };
        await sleep(options.debounceMs);
    }
    const link = new BareSseLink();
    await link.open();
    const baseline: number[] = [];
    try {
        for (let rep = 0; rep < reps; rep++) {
            baseline.push(await link.send(lastPayload));
            await sleep(5);
        }
    } finally {
        link.close();
    }
    const measured = summarize(samples);
    const base = summarize(baseline);
    return {
        id: 'context-latency',
        title: `Cursor move in the browser → ide/contextUpdate in the real IdeClient, minus the ${options.debounceMs} ms debounce`,
        unit: 'ms',
        measured,
        baselineName: 'the same payload over a bare loopback SSE stream to another process',
        baseline: base,
        goal: 'p95 within 2 × the bare SSE baseline',
        goalMet: measured.p95 <= 2 * base.p95
    };
}

/**
 * From the CLI's openDiff to the diff editor visible in the browser, per file size; against
 * Theia opening the same content in a plain editor (from Enter in Quick Open to the editor visible).
 */
export async function benchDiffLatency(options: BrowserBenchOptions, window: TheiaWindow, probe: IdeProbe): Promise<Figure[]> {
    const reps = options.quick ? 2 : 10;
    const figures: Figure[] = [];
    for (const size of DIFF_SIZES) {
        const file = path.join(options.workspace, 'bench', `diff-${size.name}.txt`);
        // A realistic proposal: one line in a hundred changed (the diff is computed, not trivial).
        const proposal = fs.readFileSync(file, 'utf8').split('\n').map((line, i) => i % 100 === 5 ? `${line} // changed by the CLI` : line).join('\n');
        const diffSamples: number[] = [];
        const plainSamples: number[] = [];
        for (let rep = 0; rep < reps; rep++) {
            const t0 = now();
            probe.openDiff(file, proposal);
            await window.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines .view-line`).first().waitFor({ state: 'visible', timeout: 60000 });
            diffSamples.push(now() - t0);
            // The CLI closes it (the user answered in the terminal): its openDiff resolves as rejected.
            probe.closeDiff(file);
            await probe.diffOutcome('closeDiff', file, 60000);
            await probe.diffOutcome('diff', file, 60000);
            await until(async () => await window.page.locator(DIFF_EDITOR).count() === 0, 'the diff to close', 20000);

            plainSamples.push(await openPlain(window, `bench/plain-${size.name}.txt`));
        }
        const measured = summarize(diffSamples);
        const baseline = summarize(plainSamples);
        figures.push({
            id: `diff-latency-${size.id}`,
            title: `openDiff → diff editor visible, ${size.label} file`,
            unit: 'ms',
            measured,
            baselineName: 'Theia opening the same content in a plain editor',
            baseline,
            goal: `within ${DIFF_GOAL} × the plain editor (median)`,
            goalMet: measured.median <= DIFF_GOAL * baseline.median
        });
    }
    return figures;
}

/** Quick Open → type the path → pick it (t0) → the editor shows text; then closes it. */
async function openPlain(window: TheiaWindow, relativePath: string): Promise<number> {
    const name = relativePath.split('/').pop()!;
    await window.page.locator('#theia-main-content-panel').click({ position: { x: 300, y: 200 } });
    await window.page.keyboard.press('Control+p');
    const input = window.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(relativePath);
    // Fuzzy matching may rank plain-100k.txt above plain-1k.txt, and the list settles late: wait
    // until the focused row is exactly this file.
    await until(async () => {
        const focused = await window.page.locator('.quick-input-list .monaco-list-row.focused .label-name').allInnerTexts();
        return focused.length === 1 && focused[0].trim() === name;
    }, `Quick Open to offer ${name} first`, 20000, 10).catch(async error => {
        const rows = await window.page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
        throw new Error(`${error.message}; rows: ${JSON.stringify(rows)}`);
    });
    const t0 = now();
    await window.page.keyboard.press('Enter');
    await window.page.locator('#theia-main-content-panel .monaco-editor .view-lines .view-line').first().waitFor({ state: 'visible', timeout: 60000 });
    await until(async () => (await window.page.locator('#theia-main-content-panel .lm-TabBar-tab.lm-mod-current').allInnerTexts()).some(text => text.includes(name)),
        `${name} to be the current tab`, 20000, 1).catch(async error => {
        throw new Error(`${error.message}; ${await window.describeForFailure('bench-plain-open')}`);
    });
    const elapsed = now() - t0;
    await window.closeEditor(name);
    return elapsed;
}

interface TrackingStats { editorEvents: number; busyMs: number; updatesSent: number }

/** The companion's own accounting, read the way a user does: from the diagnostic report. */
async function trackingStats(window: TheiaWindow): Promise<TrackingStats> {
    await window.runCommand('CLI Companion: Copy Diagnostic Report');
    const report = await until(async () => {
        const text = await window.clipboardText().catch(() => '');
        return text.includes('## Editor tracking') && text;
    }, 'the diagnostic report', 20000);
    await window.page.evaluate(() => navigator.clipboard.writeText(''));
    const number = (label: string) => Number(new RegExp(`- ${label}: ([0-9.]+)`).exec(report)?.[1]);
    return { editorEvents: number('Editor events'), updatesSent: number('Updates sent'), busyMs: number('Time spent') };
}

/**
 * Continuous typing in a 10,000-line file: the frontend time the companion spends per keystroke
 * and the updates it sends per second; the baseline is the same typing with the companion off.
 * On and off alternate, after a warm-up, so that JIT warm-up and drift do not favour either.
 */
export async function benchTyping(options: BrowserBenchOptions, window: TheiaWindow): Promise<Figure> {
    const rounds = options.quick ? 1 : 4;
    const keysPerRound = options.quick ? 60 : 100;
    const chunk = 20;
    // On again means a new server: the CLI of the first round is disconnected by then, which does
    // not change the frontend's work (it sends each update to the backend either way).
    const statusIcon = (selector: string) => window.page.locator(`#status-bar-ai-cli-ide-companion\\.status :is(${selector})`).first().waitFor({ timeout: 20000 });
    const setCompanion = async (enabled: boolean) => {
        updateTheiaSettings(options.sandbox, { 'aiCliCompanion.enabled': enabled ? undefined : false });
        await statusIcon(enabled ? '.codicon-plug, .codicon-debug-disconnect' : '.codicon-circle-slash');
    };
    const type = async (keys: number): Promise<{ perKey: number[]; seconds: number }> => {
        await window.page.locator('#theia-main-content-panel .monaco-editor .view-lines').first().click();
        await window.goTo(5000, 1);
        const perKey: number[] = [];
        const started = now();
        for (let typed = 0; typed < keys; typed += chunk) {
            const t0 = now();
            await window.page.keyboard.type('a'.repeat(chunk));
            perKey.push((now() - t0) / chunk);
        }
        await sleep(options.debounceMs * 6);
        return { perKey, seconds: (now() - started) / 1000 };
    };
    await window.openFile('bench/big.ts');
    await type(2 * chunk);
    const on: number[] = [];
    const off: number[] = [];
    let busyMs = 0;
    let events = 0;
    let updates = 0;
    let seconds = 0;
    try {
        for (let round = 0; round < rounds; round++) {
            const before = await trackingStats(window);
            const typedOn = await type(keysPerRound);
            const after = await trackingStats(window);
            on.push(...typedOn.perKey);
            busyMs += after.busyMs - before.busyMs;
            events += after.editorEvents - before.editorEvents;
            updates += after.updatesSent - before.updatesSent;
            seconds += typedOn.seconds;
            await setCompanion(false);
            off.push(...(await type(keysPerRound)).perKey);
            await setCompanion(true);
        }
    } finally {
        updateTheiaSettings(options.sandbox, { 'aiCliCompanion.enabled': undefined });
    }
    return {
        id: 'typing-cost',
        title: `Typing continuously in a 10,000-line file (${rounds * keysPerRound} keystrokes each way): wall time per keystroke`,
        unit: 'ms',
        measured: summarize(on),
        baselineName: 'the same typing with the companion turned off (alternating)',
        baseline: summarize(off),
        notes: {
            'companion time per keystroke (ms)': round(busyMs / (rounds * keysPerRound), 4),
            'editor events handled': events,
            'updates sent per second': round(updates / seconds, 1)
        }
    };
}

/** Backend ready (process start → listening) and frontend ready (navigation → workbench usable) of one start of `app`. */
async function startOnce(app: BenchApp, options: { sandbox: Sandbox; workspace: string }): Promise<{ backend: number; frontend: number }> {
    const backend = new TheiaBackend(options.sandbox, options.workspace, app.main);
    const t0 = now();
    await backend.start();
    const backendMs = now() - t0;
    const context = await launchBrowser(options.sandbox);
    try {
        const page = await context.newPage();
        const t1 = now();
        await page.goto(backend.url);
        await waitForWorkbench(page);
        await page.locator(app.hasCompanionStatus ? '#status-bar-ai-cli-ide-companion\\.status' : '#theia-statusBar').waitFor({ timeout: 30000 });
        return { backend: backendMs, frontend: now() - t1 };
    } finally {
        await context.close();
        await backend.stop();
    }
}

/**
 * Startup of the browser-app against the same app without each of our extensions (one at a time), and
 * of a plain Theia app with Theia AI against one without: every app starts once per round, in an order
 * that rotates from round to round (a start profits from the file caches the one before warmed).
 */
export async function benchStartup(options: { quick: boolean; sandbox: Sandbox; workspace: string }, apps: ReturnType<typeof startupApps>): Promise<Figure[]> {
    const rounds = options.quick ? 1 : 8;
    const order = Object.values(apps);
    const samples = new Map(order.map(app => [app.id, { backend: [] as number[], frontend: [] as number[] }]));
    for (let round = 0; round < rounds; round++) {
        for (const app of [...order.slice(round % order.length), ...order.slice(0, round % order.length)]) {
            const started = await startOnce(app, options);
            samples.get(app.id)!.backend.push(started.backend);
            samples.get(app.id)!.frontend.push(started.frontend);
        }
    }
    const comparisons: { id: string; what: string; measured: BenchApp; baseline: BenchApp; goal: boolean }[] = [
        { id: 'startup', what: 'all of CLI Companion (with the Theia AI it brings)', measured: apps.full, baseline: apps.plain, goal: false },
        ...(Object.keys(OUR_EXTENSIONS) as OurExtension[]).map(extension => ({
            id: `startup-${extension}`, what: OUR_EXTENSIONS[extension].label, measured: apps.full, baseline: apps[`without-${extension}`], goal: true
        })),
        { id: 'startup-theia-ai', what: 'Theia AI itself (for users who add the chat)', measured: apps['theia-ai'], baseline: apps.plain, goal: false }
    ];
    return comparisons.flatMap(comparison => (['backend', 'frontend'] as const).map(part => {
        const measured = summarize(samples.get(comparison.measured.id)![part]);
        const baseline = summarize(samples.get(comparison.baseline.id)![part]);
        return {
            id: `${comparison.id}-${part}`,
            title: `${part === 'backend' ? 'Backend ready (process start → listening)' : 'Frontend ready (navigation → workbench usable)'}: cost of ${comparison.what}`,
            unit: 'ms',
            measured,
            baselineName: comparison.baseline.label,
            baseline,
            ...(comparison.goal ? { goal: 'cost under 5 % (median)', goalMet: measured.median <= 1.05 * baseline.median } : {}),
            notes: { 'cost (%)': round((measured.median / baseline.median - 1) * 100, 1), 'cost (ms)': round(measured.median - baseline.median, 0) }
        };
    }));
}
