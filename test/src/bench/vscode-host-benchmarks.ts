import * as fs from 'fs';
import * as path from 'path';
import { launchBrowser } from '../hosts/browser';
import { CodeServer } from '../hosts/code-server';
import { CodeServerWindow } from '../hosts/code-server-window';
import { IdeProbe } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { Sandbox } from '../support/sandbox';
import { Figure, now, round, summarize } from './stats';

export interface VsCodeHostBenchOptions {
    readonly quick: boolean;
    readonly sandbox: Sandbox;
    readonly workspace: string;
}

const STATUS_ITEM = '.statusbar-item:has-text("CLI")';
const ACTIVE_GROUP = '.editor-group-container.active';
/** The workbench is usable: its status bar is drawn and the Explorer lists the folder. */
const WORKBENCH_READY = ['.monaco-workbench .part.statusbar .statusbar-item', '.monaco-workbench .explorer-folders-view .monaco-list-row'];
const DIFF_SIZES = [
    { id: '1k', label: '1 KiB', name: 'one-kib', lines: 16 },
    { id: '100k', label: '100 KiB', name: 'hundred-kib', lines: 1600 },
    { id: '1m', label: '1 MiB', name: 'one-mib', lines: 16384 }
];

/** The files the VS Code host benchmarks use, written into the workspace before code-server starts. */
export function vsCodeBenchmarkFiles(): Record<string, string> {
    const lines = (count: number, width: number) => Array.from({ length: count }, (_, i) => `// line ${i + 1} `.padEnd(width, 'x')).join('\n') + '\n';
    return {
        ...Object.fromEntries(DIFF_SIZES.flatMap(size => [
            [`vscode-bench/diff-${size.name}.txt`, lines(size.lines, 63)],
            [`vscode-bench/plain-${size.name}.txt`, lines(size.lines, 63)]
        ]))
    };
}

/**
 * The VS Code host (the .vsix) measured the way the Theia extensions are, in code-server: what it costs a window's
 * start (against code-server without it) and a proposal's diff (against the same content in a plain editor).
 * The context latency needs a floor of its kind first (an extension that only forwards the payload).
 */
export async function benchVsCodeHost(options: VsCodeHostBenchOptions, log: (line: string) => void): Promise<Figure[]> {
    const withIt = new CodeServer(options.sandbox, {}, { name: 'bench-with' });
    const without = new CodeServer(options.sandbox, {}, { name: 'bench-without', withExtension: false });
    try {
        await withIt.start();
        await without.start();
        log('vscode: window start with and without the extension…');
        const figures = [await benchWindowStart(options, withIt, without)];
        await without.stop();
        log('vscode: diff latency…');
        const window = await CodeServerWindow.open(options.sandbox, withIt.windowUrl(options.workspace));
        try {
            await window.trustFolder();
            await window.openTerminal();
            const probe = new IdeProbe('gemini', await window.terminalEnvironment(options.workspace), options.workspace);
            try {
                await probe.connected();
                figures.push(...await benchVsCodeDiffs(options, window, probe));
            } finally {
                await probe.close();
            }
        } finally {
            await window.close();
        }
        return figures;
    } finally {
        await without.stop();
        await withIt.stop();
    }
}

/** Navigation → the workbench usable, alternating a code-server with the .vsix and one without; with it, when its status item shows too. */
async function benchWindowStart(options: VsCodeHostBenchOptions, withIt: CodeServer, without: CodeServer): Promise<Figure> {
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

/** The CLI's openDiff → the diff editor's modified side shows lines, against Quick Open → the same content in a plain editor. */
async function benchVsCodeDiffs(options: VsCodeHostBenchOptions, window: CodeServerWindow, probe: IdeProbe): Promise<Figure[]> {
    const reps = options.quick ? 2 : 10;
    const figures: Figure[] = [];
    for (const size of DIFF_SIZES) {
        const file = path.join(options.workspace, 'vscode-bench', `diff-${size.name}.txt`);
        const proposal = fs.readFileSync(file, 'utf8').split('\n').map((line, i) => i % 100 === 5 ? `${line} // changed by the CLI` : line).join('\n');
        const diffs: number[] = [];
        const plains: number[] = [];
        for (let rep = 0; rep < reps; rep++) {
            const t0 = now();
            probe.openDiff(file, proposal);
            await window.page.locator(`${ACTIVE_GROUP} .monaco-diff-editor .editor.modified .view-lines .view-line`).first().waitFor({ state: 'visible', timeout: 60000 });
            diffs.push(now() - t0);
            probe.closeDiff(file);
            await probe.diffOutcome('closeDiff', file, 60000);
            await window.waitForNoDiff(20000);
            plains.push(await openPlain(window, `vscode-bench/plain-${size.name}.txt`));
        }
        const measured = summarize(diffs);
        const baseline = summarize(plains);
        figures.push({
            id: `vscode-diff-latency-${size.id}`, title: `code-server: openDiff → diff editor visible, ${size.label} file`, unit: 'ms', measured,
            baselineName: 'code-server opening the same content in a plain editor', baseline,
            goal: 'within 1.5 × the plain editor (median)', goalMet: measured.median <= 1.5 * baseline.median
        });
    }
    return figures;
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
