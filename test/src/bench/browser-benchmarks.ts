import * as fs from 'fs';
import * as path from 'path';
import { launchBrowser, waitForWorkbench } from '../hosts/browser';
import { IdeProbe } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { Sandbox, updateTheiaSettings } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';
import { Figure, now, round, sleep, summarize } from './stats';
import { markAt, takeBackendMarks, takePageMarks } from './timing-marks';
import { BENCH_FLOOR_GLOBAL } from '@theia-cli-companion/bench-floor/lib/common';
import { FileUri } from '@theia/core/lib/common/file-uri';
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
    { id: '1m', label: '1 MiB', name: 'one-mib', lines: 16384 },
    // Measured, without a goal, and over loopback HTTP: the stdio relay (a CLI's way in a container) answers a
    // proposal whose answer would not fit through the CLI's stdio transport (10 MiB) with a tool error.
    { id: '10m', label: '10 MiB', name: 'ten-mib', lines: 163840, measuredOnly: true }
];
/** The goal for proposals up to 1 MiB: at most this many times what opening the file in a plain editor takes. */
const DIFF_GOAL = 1.5;

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
 * From the CLI's openDiff to the diff editor visible in the browser, per file size; against
 * Theia opening the same content in a plain editor (from Enter in Quick Open to the editor visible).
 */
export async function benchDiffLatency(options: BrowserBenchOptions, window: TheiaWindow, defaultProbe: IdeProbe, loopbackProbe?: IdeProbe): Promise<Figure[]> {
    const reps = options.quick ? 2 : 10;
    const figures: Figure[] = [];
    for (const size of DIFF_SIZES) {
        const probe = 'measuredOnly' in size ? loopbackProbe ?? defaultProbe : defaultProbe;
        const transport = (await probe.status()).transport;
        const file = path.join(options.workspace, 'bench', `diff-${size.name}.txt`);
        // A realistic proposal: one line in a hundred changed (the diff is computed, not trivial).
        const proposal = fs.readFileSync(file, 'utf8').split('\n').map((line, i) => i % 100 === 5 ? `${line} // changed by the CLI` : line).join('\n');
        const diffSamples: number[] = [];
        const plainSamples: number[] = [];
        const theiaDiffSamples: number[] = [];
        const split = new DiffSplit();
        // Theia's own diff editor of the same two texts, as files (the floor of any extension's diff review).
        const proposedFile = path.join(options.workspace, 'bench', `proposed-${size.name}.txt`);
        fs.writeFileSync(proposedFile, proposal);
        for (let rep = 0; rep < reps; rep++) {
            await split.clear(window);
            const t0 = now();
            probe.openDiff(file, proposal);
            await window.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines .view-line`).first().waitFor({ state: 'visible', timeout: 60000 }).catch(async error => {
                throw new Error(`The ${size.label} diff did not show: ${error.message}; ${await window.describeForFailure(`bench-diff-${size.id}`)}`);
            });
            const visible = now();
            diffSamples.push(visible - t0);
            await split.add(window, t0, visible);
            // The CLI closes it (the user answered in the terminal): its openDiff resolves as rejected.
            probe.closeDiff(file);
            await probe.diffOutcome('closeDiff', file, 60000);
            await probe.diffOutcome('diff', file, 60000);
            await until(async () => await window.page.locator(DIFF_EDITOR).count() === 0, 'the diff to close', 20000);

            plainSamples.push(await openPlain(window, `bench/plain-${size.name}.txt`));
            theiaDiffSamples.push(await openTheiaDiff(window, path.join(options.workspace, 'bench', `plain-${size.name}.txt`), proposedFile));
        }
        const measured = summarize(diffSamples);
        const baseline = summarize(plainSamples);
        figures.push({
            id: `diff-latency-${size.id}`,
            title: `openDiff → diff editor visible, ${size.label} file (${transport === 'stdio' ? 'through the stdio relay' : 'over loopback HTTP'})`,
            unit: 'ms',
            measured,
            baselineName: 'Theia opening the same content in a plain editor',
            baseline,
            ...('measuredOnly' in size ? {} : { goal: `within ${DIFF_GOAL} × the plain editor (median)`, goalMet: measured.median <= DIFF_GOAL * baseline.median }),
            notes: {
                ...split.notes(),
                'Theia\'s own diff editor of the same texts (two files, opened by its opener from bench-floor; median, × the plain editor)':
                    `${round(summarize(theiaDiffSamples).median)}; ${round(summarize(theiaDiffSamples).median / baseline.median)}`
            }
        });
        fs.rmSync(proposedFile, { force: true });
    }
    return figures;
}

const DIFF_SPLIT_NOTE = 'by our timing marks: openDiff → our tool (CLI, transport); → the window asked (our checks); → the window has it (Theia\'s RPC); '
    + '→ Theia opens the editor (our review); → open; → visible (medians)';

/**
 * Where an openDiff's time goes, by our timing marks: the CLI's call → our tool (the CLI, the relay, the MCP SDK);
 * → the window is asked (our checks); → the window has it (Theia's RPC); → Theia is asked to open the diff editor
 * (our review); → it is open; → its text is visible (Monaco renders).
 */
class DiffSplit {
    protected readonly spans = { toTool: [] as number[], ours: [] as number[], rpc: [] as number[], review: [] as number[], open: [] as number[], render: [] as number[] };

    async clear(window: TheiaWindow): Promise<void> {
        await takeBackendMarks(window);
        await takePageMarks(window);
    }

    async add(window: TheiaWindow, t0: number, visible: number): Promise<void> {
        const marks = [...await takeBackendMarks(window), ...await takePageMarks(window)];
        const tool = markAt(marks, 'diff:tool-called', t0);
        const toWindow = markAt(marks, 'diff:to-window', tool);
        const received = markAt(marks, 'diff:received', toWindow);
        const opening = markAt(marks, 'diff:opening', received);
        const opened = markAt(marks, 'diff:opened', opening);
        const { spans } = this;
        [[spans.toTool, tool - t0], [spans.ours, toWindow - tool], [spans.rpc, received - toWindow], [spans.review, opening - received],
            [spans.open, opened - opening], [spans.render, visible - opened]].forEach(([samples, value]) => (samples as number[]).push(value as number));
    }

    notes(): Record<string, string> {
        const median = (samples: number[]) => round(summarize(samples).median);
        const { toTool, ours, rpc, review, open, render } = this.spans;
        return {
            [DIFF_SPLIT_NOTE]:
                [toTool, ours, rpc, review, open, render].map(median).join('; ')
        };
    }
}

/** Theia's diff editor of two files, opened as any extension opens one (OpenerService, DiffUris), until its right side shows lines; then closed. */
async function openTheiaDiff(window: TheiaWindow, left: string, right: string): Promise<number> {
    const t0 = now();
    await window.page.evaluate(([name, leftUri, rightUri]) => (window as unknown as Record<string, { openDiff(left: string, right: string): Promise<void> }>)[name]
        .openDiff(leftUri, rightUri), [BENCH_FLOOR_GLOBAL, FileUri.create(left).toString(), FileUri.create(right).toString()]);
    await window.page.locator(`${DIFF_EDITOR} .editor.modified .view-lines .view-line`).first().waitFor({ state: 'visible', timeout: 60000 });
    const elapsed = now() - t0;
    await window.page.evaluate(name => (window as unknown as Record<string, { closeDiffs(): void }>)[name].closeDiffs(), BENCH_FLOOR_GLOBAL);
    await until(async () => await window.page.locator(DIFF_EDITOR).count() === 0, 'Theia\'s diff to close', 20000);
    return elapsed;
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
    const type = (keys: number) => typeKeys(window, keys, chunk, options.debounceMs);
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

/** Types `keys` keystrokes, `chunk` at a time, in the middle of the open file: the time per keystroke, and the seconds it all took until the updates went out. */
async function typeKeys(window: TheiaWindow, keys: number, chunk: number, debounceMs: number): Promise<{ perKey: number[]; seconds: number }> {
    await window.page.locator('#theia-main-content-panel .monaco-editor .view-lines').first().click();
    await window.goTo(5000, 1);
    const perKey: number[] = [];
    const started = now();
    for (let typed = 0; typed < keys; typed += chunk) {
        const t0 = now();
        await window.page.keyboard.type('a'.repeat(chunk));
        perKey.push((now() - t0) / chunk);
    }
    await sleep(debounceMs * 6);
    return { perKey, seconds: (now() - started) / 1000 };
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

/** A backend start alone: the process started until it listens, then stopped. */
async function startBackendOnce(app: BenchApp, options: { sandbox: Sandbox; workspace: string }): Promise<number> {
    const backend = new TheiaBackend(options.sandbox, options.workspace, app.main);
    const t0 = now();
    try {
        await backend.start();
        return now() - t0;
    } finally {
        await backend.stop();
    }
}

/** Backend starts per app and round besides the one with a window: they are cheap and spread widely (±10 %). */
const EXTRA_BACKEND_STARTS = 2;

/**
 * Startup of the browser-app against the same app without each of our extensions (one at a time), and
 * of a plain Theia app with Theia AI against one without: every app starts once per round, in an order
 * that rotates from round to round (a start profits from the file caches the one before warmed), and its
 * backend starts alone a few more times.
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
        for (let extra = 0; extra < (options.quick ? 0 : EXTRA_BACKEND_STARTS); extra++) {
            for (const app of [...order.slice((round + extra + 1) % order.length), ...order.slice(0, (round + extra + 1) % order.length)]) {
                samples.get(app.id)!.backend.push(await startBackendOnce(app, options));
            }
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
