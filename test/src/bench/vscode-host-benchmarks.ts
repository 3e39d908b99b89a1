import * as fs from 'fs';
import * as path from 'path';
import { TIMING_MARKS_VARIABLE } from '@theia-cli-companion/cli-process/lib/node';
import { launchBrowser } from '../hosts/browser';
import { CodeServer } from '../hosts/code-server';
import { CodeServerWindow } from '../hosts/code-server-window';
import { IdeProbe } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { Sandbox } from '../support/sandbox';
import { activeCursorLine, SseArrivals } from './context-latency-benchmarks';
import { Figure, now, round, sleep, summarize } from './stats';
import { markAt, TimingMark } from './timing-marks';
import { openFloorDiff, packVsCodeFloor, takeExtensionHostMarks, VSCODE_FLOOR_EVENTS_PATH, VSCODE_FLOOR_PORT_FILE_VARIABLE, vsCodeFloorPort } from './vscode-bench-floor';

export interface VsCodeHostBenchOptions {
    readonly quick: boolean;
    readonly sandbox: Sandbox;
    readonly workspace: string;
}

const STATUS_ITEM = '.statusbar-item:has-text("CLI")';
const ACTIVE_GROUP = '.editor-group-container.active';
/** The workbench is usable: its status bar is drawn and the Explorer lists the folder. */
const WORKBENCH_READY = ['.monaco-workbench .part.statusbar .statusbar-item', '.monaco-workbench .explorer-folders-view .monaco-list-row'];
const CONTEXT_FILE = 'vscode-bench/context.ts';
/** The extension's default debounce (`aiCliCompanion.context.debounceMs`), subtracted from its figure. */
const DEBOUNCE_MS = 50;
const DIFF_SIZES = [
    { id: '1k', label: '1 KiB', name: 'one-kib', lines: 16 },
    { id: '100k', label: '100 KiB', name: 'hundred-kib', lines: 1600 },
    { id: '1m', label: '1 MiB', name: 'one-mib', lines: 16384 }
];

/** The files the VS Code host benchmarks use, written into the workspace before code-server starts. */
export function vsCodeBenchmarkFiles(): Record<string, string> {
    const lines = (count: number, width: number) => Array.from({ length: count }, (_, i) => `// line ${i + 1} `.padEnd(width, 'x')).join('\n') + '\n';
    return {
        [CONTEXT_FILE]: Array.from({ length: 200 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n') + '\n',
        ...Object.fromEntries(DIFF_SIZES.flatMap(size => [
            [`vscode-bench/diff-${size.name}.txt`, lines(size.lines, 63)],
            [`vscode-bench/plain-${size.name}.txt`, lines(size.lines, 63)]
        ]))
    };
}

/**
 * The VS Code host (the .vsix) measured the way the Theia extensions are, in code-server: what it costs a window's
 * start (against code-server without it), a proposal's diff (against the same content in a plain editor)
 * and the context latency (against an extension that only forwards the payload: the floor).
 */
export async function benchVsCodeHost(options: VsCodeHostBenchOptions, log: (line: string) => void): Promise<Figure[]> {
    const figures = [await benchWindowStart(options, log)];
    log('vscode: context and diff latency…');
    const portFile = path.join(options.sandbox.root, 'vscode-floor-port');
    const server = new CodeServer(options.sandbox, {}, {
        name: 'bench-latency', alsoInstall: [packVsCodeFloor(options.sandbox.root)],
        // Our timing marks split the figures (the floor extension reads them from the extension host).
        env: { [VSCODE_FLOOR_PORT_FILE_VARIABLE]: portFile, [TIMING_MARKS_VARIABLE]: '1' }
    });
    try {
        await server.start();
        const window = await CodeServerWindow.open(options.sandbox, server.windowUrl(options.workspace));
        try {
            await window.trustFolder();
            await window.openTerminal();
            const probe = new IdeProbe('gemini', await window.terminalEnvironment(options.workspace), options.workspace);
            try {
                await probe.connected();
                const floorPort = await vsCodeFloorPort(portFile);
                figures.push(await benchVsCodeContext(options, window, probe, floorPort));
                figures.push(...await benchVsCodeDiffs(options, window, probe, floorPort));
            } finally {
                await probe.close();
            }
        } finally {
            await window.close();
        }
        return figures;
    } finally {
        await server.stop();
    }
}

/**
 * A key press moving the cursor → the real Gemini IdeClient holding the new context, minus the debounce; against the
 * same key press → the floor extension's SSE event in a client process (no debounce). Both from one key press each time.
 */
async function benchVsCodeContext(options: VsCodeHostBenchOptions, window: CodeServerWindow, probe: IdeProbe, floorPort: number): Promise<Figure> {
    const reps = options.quick ? 5 : 60;
    let latest = { at: 0, line: undefined as number | undefined };
    probe.watchContext(update => latest = { at: update.at, line: activeCursorLine(update.context) });
    await window.openFile(CONTEXT_FILE);
    await window.goTo(1, 1);
    await until(() => latest.line === 1, 'the CLI to see line 1', 20000);
    const floor = new SseArrivals(`http://127.0.0.1:${floorPort}${VSCODE_FLOOR_EVENTS_PATH}`);
    const samples = { ours: [] as number[], floor: [] as number[], toSessions: [] as number[], write: [] as number[], toClient: [] as number[] };
    try {
        await until(() => floor.connectedNow(), 'the floor\'s SSE client to connect', 10000);
        for (let rep = 0; rep < reps; rep++) {
            const line = rep + 2;
            await takeExtensionHostMarks(floorPort);
            const floorArrived = floor.next();
            const t0 = now();
            await window.page.keyboard.press('ArrowDown');
            await until(() => latest.line === line, `the CLI to see line ${line}`, 20000, 1);
            samples.floor.push(await floorArrived - t0);
            samples.ours.push(latest.at - t0 - DEBOUNCE_MS);
            const marks = await takeExtensionHostMarks(floorPort);
            const toSessions = markAt(marks, 'context:to-sessions', t0);
            const sent = markAt(marks, 'context:sent', toSessions);
            samples.toSessions.push(toSessions - t0 - DEBOUNCE_MS);
            samples.write.push(sent - toSessions);
            samples.toClient.push(latest.at - sent);
            await sleep(DEBOUNCE_MS);
        }
    } finally {
        floor.close();
    }
    const measured = summarize(samples.ours);
    const baseline = summarize(samples.floor);
    return {
        id: 'vscode-context-latency', title: `code-server: cursor move → ide/contextUpdate in the real IdeClient, minus the ${DEBOUNCE_MS} ms debounce`, unit: 'ms',
        measured, baselineName: 'the same key press → an extension that only forwards the payload over SSE to another process (the floor)', baseline,
        goal: 'p95 within 1.5 × the floor', goalMet: measured.p95 <= 1.5 * baseline.p95,
        notes: {
            'by our timing marks: key → our MCP sessions, minus the debounce (VS Code\'s event, our tracker); written (MCP SDK); → IdeClient (medians)':
                [samples.toSessions, samples.write, samples.toClient].map(span => round(summarize(span).median)).join('; ')
        }
    };
}

/** Navigation → the workbench usable, alternating a code-server with the .vsix and one without; with it, when its status item shows too. */
async function benchWindowStart(options: VsCodeHostBenchOptions, log: (line: string) => void): Promise<Figure> {
    const withIt = new CodeServer(options.sandbox, {}, { name: 'bench-with' });
    const without = new CodeServer(options.sandbox, {}, { name: 'bench-without', withExtension: false });
    try {
        await withIt.start();
        await without.start();
        log('vscode: window start with and without the extension…');
        return await timeWindowStarts(options, withIt, without);
    } finally {
        await without.stop();
        await withIt.stop();
    }
}

async function timeWindowStarts(options: VsCodeHostBenchOptions, withIt: CodeServer, without: CodeServer): Promise<Figure> {
    const rounds = options.quick ? 1 : 6;
    const samples = { with: [] as number[], without: [] as number[], statusItem: [] as number[] };
    for (let round = 0; round < rounds; round++) {
        for (const [server, installed] of round % 2 ? [[without, false], [withIt, true]] as const : [[withIt, true], [without, false]] as const) {
            const context = await launchBrowser(options.sandbox);
            try {
                const page = await context.newPage();
                const t0 = now();
                await page.goto(server.windowUrl(options.workspace));
                for (const selector of WORKBENCH_READY) {
                    await page.locator(selector).first().waitFor({ state: 'visible', timeout: 60000 });
                }
                samples[installed ? 'with' : 'without'].push(now() - t0);
                if (installed) {
                    await page.locator(STATUS_ITEM).first().waitFor({ state: 'visible', timeout: 60000 });
                    samples.statusItem.push(now() - t0);
                }
            } finally {
                await context.close();
            }
        }
    }
    const measured = summarize(samples.with);
    const baseline = summarize(samples.without);
    return {
        id: 'vscode-startup', title: 'code-server window ready (navigation → status bar drawn and the Explorer lists the folder): cost of the .vsix', unit: 'ms',
        measured, baselineName: 'the same code-server without the extension (alternating)', baseline,
        goal: 'cost under 5 % (median)', goalMet: measured.median <= 1.05 * baseline.median,
        notes: {
            'cost (%)': round((measured.median / baseline.median - 1) * 100, 1),
            'its status item shown (navigation →, median ms)': round(summarize(samples.statusItem).median)
        }
    };
}

/**
 * The CLI's openDiff → the diff editor's modified side shows lines, against Quick Open → the same content in a plain editor;
 * noted: VS Code's own diff editor of the same two texts as files, opened by the floor extension with `vscode.diff`.
 */
async function benchVsCodeDiffs(options: VsCodeHostBenchOptions, window: CodeServerWindow, probe: IdeProbe, floorPort: number): Promise<Figure[]> {
    const reps = options.quick ? 2 : 10;
    const figures: Figure[] = [];
    const modifiedLines = window.page.locator(`${ACTIVE_GROUP} .monaco-diff-editor .editor.modified .view-lines .view-line`).first();
    for (const size of DIFF_SIZES) {
        const file = path.join(options.workspace, 'vscode-bench', `diff-${size.name}.txt`);
        const proposal = fs.readFileSync(file, 'utf8').split('\n').map((line, i) => i % 100 === 5 ? `${line} // changed by the CLI` : line).join('\n');
        const proposalFile = path.join(options.workspace, 'vscode-bench', `proposal-${size.name}.txt`);
        fs.writeFileSync(proposalFile, proposal);
        const samples = { diffs: [] as number[], plains: [] as number[], ownDiffs: [] as number[], split: [] as number[][] };
        for (let rep = 0; rep < reps; rep++) {
            await takeExtensionHostMarks(floorPort);
            const t0 = now();
            probe.openDiff(file, proposal);
            await modifiedLines.waitFor({ state: 'visible', timeout: 60000 });
            const shown = now();
            samples.diffs.push(shown - t0);
            samples.split.push(splitDiff(await takeExtensionHostMarks(floorPort), t0, shown));
            probe.closeDiff(file);
            await probe.diffOutcome('closeDiff', file, 60000);
            await window.waitForNoDiff(20000);
            samples.plains.push(await openPlain(window, `vscode-bench/plain-${size.name}.txt`));
            const f0 = now();
            await openFloorDiff(floorPort, path.join(options.workspace, 'vscode-bench', `plain-${size.name}.txt`), proposalFile);
            await modifiedLines.waitFor({ state: 'visible', timeout: 60000 });
            samples.ownDiffs.push(now() - f0);
            await window.closeActiveEditor();
            await window.waitForNoDiff(20000);
        }
        const measured = summarize(samples.diffs);
        const baseline = summarize(samples.plains);
        const own = summarize(samples.ownDiffs);
        figures.push({
            id: `vscode-diff-latency-${size.id}`, title: `code-server: openDiff → diff editor visible, ${size.label} file`, unit: 'ms', measured,
            baselineName: 'code-server opening the same content in a plain editor', baseline,
            goal: 'within 1.5 × the plain editor (median)', goalMet: measured.median <= 1.5 * baseline.median,
            notes: {
                'by our timing marks: CLI → our tool; our checks → the window\'s review; → our review opening; VS Code opening and drawing the diff editor (medians)':
                    samples.split[0].map((_, i) => round(summarize(samples.split.map(split => split[i])).median)).join('; '),
                'VS Code\'s own diff editor of the same texts as files (vscode.diff from an extension): median ms; × the plain editor':
                    `${round(own.median)}; ${round(own.median / baseline.median, 2)}`
            }
        });
    }
    return figures;
}

/**
 * The spans between the extension host's diff marks (see the note that lists them), from the CLI's call to the lines shown.
 * `vscode.diff` may resolve in the extension host after the workbench drew the lines: its opening is one span with the drawing.
 */
function splitDiff(marks: TimingMark[], t0: number, shown: number): number[] {
    const points = [t0];
    for (const name of ['diff:tool-called', 'diff:to-window', 'diff:opening']) {
        points.push(markAt(marks, name, points[points.length - 1]));
    }
    points.push(shown);
    return points.slice(1).map((point, i) => point - points[i]);
}

/** Quick Open → the file's row first → Enter (t0) → its lines show; then closed. */
async function openPlain(window: CodeServerWindow, relativePath: string): Promise<number> {
    const name = path.basename(relativePath);
    await window.page.keyboard.press('Control+p');
    const input = window.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(relativePath);
    const first = window.page.locator('.quick-input-list .monaco-list-row').first();
    await until(async () => (await first.innerText().catch(() => '')).includes(name), `Quick Open to offer ${relativePath} first`, 10000, 10);
    const t0 = now();
    await input.press('Enter');
    await until(async () => (await window.page.locator(`${ACTIVE_GROUP} .tab.active`).innerText().catch(() => '')).includes(name)
        && await window.page.locator(`${ACTIVE_GROUP} .monaco-editor .view-lines .view-line`).first().isVisible(), `${name} to show`, 60000, 1);
    const elapsed = now() - t0;
    await window.closeActiveEditor();
    return elapsed;
}
