import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TIMING_MARKS_VARIABLE } from '@theia-cli-companion/cli-process/lib/node';
import { IdeProbe } from '../hosts/ide-probe';
import { createSandbox, createWorkspace, Sandbox, updateTheiaSettings } from '../support/sandbox';
import { REPO_ROOT, TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';
import { benchDiffLatency, benchmarkFiles, benchStartup, benchTyping } from './browser-benchmarks';
import { benchFloorApp, startupApps } from './bench-apps';
import { benchContextLatency } from './context-latency-benchmarks';
import { stampRpcFrames } from './page-rpc-marks';
import { benchFanOut, benchIdeClientShare, benchThroughput, benchWindows } from './server-benchmarks';
import { benchSnapshots } from './snapshot-benchmarks';
import { benchCheckpointStorage } from './checkpoint-storage-benchmarks';
import { benchAcpTurn, echoingGeminiApi, fakeAgentSetting, fakeBenchAgent, geminiBenchAgent } from './acp-turn-benchmarks';
import { prepareGeminiAcp } from '../clis/gemini-acp-setup';
import { benchAcpToolOutput } from './acp-tool-output-benchmarks';
import { benchVsCodeHost, vsCodeBenchmarkFiles } from './vscode-host-benchmarks';
import { benchImageStart } from './image-benchmarks';
import { Figure, round } from './stats';

export interface BenchmarkRun {
    readonly date: string;
    readonly quick: boolean;
    readonly machine: string;
    /** The commit measured (with `+changes` when the work tree differed from it). */
    readonly commit: string;
    readonly durationSeconds: number;
    readonly figures: Figure[];
}

const DEBOUNCE_MS = 50;

/** The parts of a run, in the order they run; `--only` picks some (such a run never writes the document). */
export const BENCH_SECTIONS = ['server', 'snapshots', 'browser', 'vscode', 'startup', 'image'] as const;
export type BenchSection = typeof BENCH_SECTIONS[number];

export function parseSections(argv: readonly string[]): readonly BenchSection[] {
    const index = argv.indexOf('--only');
    if (index < 0) {
        return BENCH_SECTIONS;
    }
    const names = (argv[index + 1] ?? '').split(',').filter(name => name);
    const unknown = names.filter(name => !(BENCH_SECTIONS as readonly string[]).includes(name));
    if (!names.length || unknown.length) {
        throw new Error(`--only takes a comma-separated list of ${BENCH_SECTIONS.join(', ')}; got "${argv[index + 1] ?? ''}"`);
    }
    return BENCH_SECTIONS.filter(name => names.includes(name));
}

export function describeCommit(): string {
    try {
        const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT }).toString().trim();
        const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO_ROOT }).toString().trim() !== '';
        return dirty ? `${head}+changes` : head;
    } catch {
        return 'unknown (not a git checkout)';
    }
}

const DOC_START = '<!-- benchmarks:start (written by `npm run bench`; edits here are replaced) -->';
const DOC_END = '<!-- benchmarks:end -->';

/** The document with its results section replaced by `table`; the rest of it (goals, readings) is kept. */
export function withResults(document: string, table: string): string {
    const start = document.indexOf(DOC_START);
    const end = document.indexOf(DOC_END);
    if (start < 0 || end < start) {
        throw new Error(`docs/BENCHMARKS.md has no results section between "${DOC_START}" and "${DOC_END}"`);
    }
    return document.slice(0, start + DOC_START.length) + '\n\n' + table + '\n' + document.slice(end);
}

export function describeMachine(): string {
    const container = fs.existsSync('/.dockerenv') || fs.existsSync('/run/.containerenv') ? ', in a container' : '';
    return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${round(os.totalmem() / 2 ** 30, 1)} GiB, `
        + `${os.type()} ${os.release()}, Node ${process.version}${container}`;
}

/**
 * Every benchmark, each against its baseline in the same run, in a sandbox that is removed after.
 * `quick` is the smoke version the test suite runs: the same code paths with few repetitions.
 */
export async function runBenchmarks(quick: boolean, log: (line: string) => void = () => undefined,
    sections: readonly BenchSection[] = BENCH_SECTIONS): Promise<BenchmarkRun> {
    const started = Date.now();
    const sandbox = createSandbox({ 'aiCliCompanion.context.debounceMs': DEBOUNCE_MS });
    updateTheiaSettings(sandbox, fakeAgentSetting(sandbox));
    const saved = { TMPDIR: process.env.TMPDIR, HOME: process.env.HOME, QWEN_HOME: process.env.QWEN_HOME };
    // The in-process benchmarks write discovery files: into the sandbox, like everything else.
    Object.assign(process.env, { TMPDIR: sandbox.env.TMPDIR, HOME: sandbox.env.HOME, QWEN_HOME: sandbox.env.QWEN_HOME });
    const figures: Figure[] = [];
    try {
        const workspace = createWorkspace(sandbox, 'bench-project', { ...benchmarkFiles(), ...vsCodeBenchmarkFiles() });
        const serverOptions = { quick, workspace };
        if (sections.includes('server')) {
            log('server throughput and latency…');
            figures.push(...await benchThroughput(serverOptions));
            log('fan-out…');
            figures.push(...await benchFanOut(serverOptions));
            log('the IdeClient\'s share of a context update…');
            figures.push(await benchIdeClientShare({ ...serverOptions, env: sandbox.env }));
            log('windows…');
            figures.push(...await benchWindows(serverOptions));
            log('ACP tool output…');
            figures.push(...await benchAcpToolOutput({ quick, scratch: path.join(sandbox.root, 'acp-tool-output') }));
        }
        if (sections.includes('snapshots')) {
            log('snapshots…');
            figures.push(...await benchSnapshots({ quick, scratch: path.join(sandbox.root, 'snapshot-bench') }));
            log('checkpoint storage…');
            figures.push(...await benchCheckpointStorage({ quick, scratch: path.join(sandbox.root, 'checkpoint-storage-bench') }));
        }
        if (sections.includes('browser')) {
            figures.push(...await runBrowserBenchmarks({ quick, sandbox, workspace }, log));
        }
        if (sections.includes('vscode')) {
            log('vscode: the .vsix in code-server…');
            figures.push(...await benchVsCodeHost({ quick, sandbox, workspace }, log));
        }
        if (sections.includes('startup')) {
            log('startup (building the apps it compares)…');
            figures.push(...await benchStartup({ quick, sandbox, workspace }, startupApps()));
        }
        if (sections.includes('image')) {
            log('image: building it (scripts/image.sh), then its cold start…');
            figures.push(...await benchImageStart({ quick, sandbox, workspace }));
        }
    } finally {
        for (const [key, value] of Object.entries(saved)) {
            if (value === undefined) {
                delete process.env[key];
            } else {
                process.env[key] = value;
            }
        }
        sandbox.dispose();
    }
    return { date: new Date().toISOString(), quick, machine: describeMachine(), commit: describeCommit(), durationSeconds: Math.round((Date.now() - started) / 1000), figures };
}

/** The figures taken in one window of the browser-app, with a real Gemini IdeClient connected from its terminal. */
async function runBrowserBenchmarks(options: { quick: boolean; sandbox: Sandbox; workspace: string }, log: (line: string) => void): Promise<Figure[]> {
    const { quick, sandbox, workspace } = options;
    const figures: Figure[] = [];
    let backend: TheiaBackend | undefined;
    let window: TheiaWindow | undefined;
    let probe: IdeProbe | undefined;
    let loopbackProbe: IdeProbe | undefined;
    const geminiApi = echoingGeminiApi();
    try {
        log('browser: building the browser-app with the bench floor…');
        const app = benchFloorApp();
        // The real Gemini CLI as an ACP agent, offline: the backend starts it with this sandbox's PATH and settings.
        await geminiApi.start();
        prepareGeminiAcp(sandbox, geminiApi.url, 'bench-offline-key');
        log('browser: context latency…');
        // The backend's timing marks split the figures where our code runs (the bench floor reads them).
        sandbox.env[TIMING_MARKS_VARIABLE] = '1';
        backend = new TheiaBackend(sandbox, workspace, app.main);
        await backend.start();
        window = await TheiaWindow.open(sandbox, backend.url, stampRpcFrames);
        await window.openTerminal();
        const env = await window.terminalEnvironment(workspace);
        probe = new IdeProbe('gemini', env, workspace);
        await probe.connected();
        if (fs.existsSync('/.dockerenv') || fs.existsSync('/run/.containerenv')) {
            // In a container the CLI takes the stdio relay; this one dials loopback, as on a Linux box.
            loopbackProbe = new IdeProbe('gemini', { ...env, REMOTE_CONTAINERS: 'true' }, workspace);
            await loopbackProbe.connected();
        }
        const browserOptions = { quick, sandbox, workspace, backend, debounceMs: DEBOUNCE_MS };
        figures.push(...await benchContextLatency({ quick, backendUrl: backend.url, debounceMs: DEBOUNCE_MS }, window, probe, loopbackProbe));
        log('browser: diff latency…');
        figures.push(...await benchDiffLatency(browserOptions, window, probe, loopbackProbe));
        log('browser: typing…');
        figures.push(await benchTyping(browserOptions, window));
        log('browser: ACP chat turn…');
        figures.push(await benchAcpTurn(browserOptions, window, backend, fakeBenchAgent(sandbox)));
        log('browser: ACP chat turn, real gemini --acp…');
        figures.push(await benchAcpTurn(browserOptions, window, backend, geminiBenchAgent(sandbox, geminiApi)));
    } finally {
        await loopbackProbe?.close();
        await probe?.close();
        await window?.close();
        await backend?.stop();
        await geminiApi.stop();
    }
    return figures;
}

const format = (value: number) => Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2) : value.toFixed(3);

/** The run as a Markdown table: each figure beside its baseline, their ratio, and the goal. */
export function toMarkdown(run: BenchmarkRun): string {
    const lines = [
        `Run ${run.date}${run.quick ? ' (quick)' : ''} of commit ${run.commit} on ${run.machine}; ${run.durationSeconds} s.`,
        '',
        '| figure | unit | median | p95 | n | baseline | baseline median | baseline p95 | ratio (median) | goal | met | notes |',
        '| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | --- | --- |'
    ];
    for (const figure of run.figures) {
        const ratio = figure.baseline.median !== 0 ? (figure.measured.median / figure.baseline.median).toFixed(2) : '–';
        const notes = Object.entries(figure.notes ?? {}).map(([key, value]) => `${key}: ${value}`).join('; ');
        lines.push(`| ${figure.title} | ${figure.unit} | ${format(figure.measured.median)} | ${format(figure.measured.p95)} | ${figure.measured.n} `
            + `| ${figure.baselineName} | ${format(figure.baseline.median)} | ${format(figure.baseline.p95)} | ${ratio} `
            + `| ${figure.goal ?? ''} | ${figure.goalMet === undefined ? '' : figure.goalMet ? 'yes' : 'no'} | ${notes} |`);
    }
    return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
    const quick = process.argv.includes('--quick');
    const outIndex = process.argv.indexOf('--out');
    const out = outIndex > 0 ? process.argv[outIndex + 1] : path.join(REPO_ROOT, 'test-results', 'benchmarks.json');
    const sections = parseSections(process.argv);
    const run = await runBenchmarks(quick, line => process.stderr.write(`[bench] ${line}\n`), sections);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(run, undefined, 2) + '\n');
    fs.writeFileSync(out.replace(/\.json$/, '.md'), toMarkdown(run));
    process.stdout.write(toMarkdown(run));
    process.stdout.write(`\nJSON: ${out}\n`);
    // A full run is the document's: it cannot go stale. A quick one (few repetitions) never replaces it.
    if (!quick && sections.length === BENCH_SECTIONS.length && !process.argv.includes('--no-docs')) {
        const document = path.join(REPO_ROOT, 'docs', 'BENCHMARKS.md');
        fs.writeFileSync(document, withResults(fs.readFileSync(document, 'utf8'), toMarkdown(run)));
        process.stdout.write(`Results written into ${document}\n`);
    }
}

if (require.main === module) {
    main().then(() => process.exit(0), error => {
        process.stderr.write(`benchmarks failed: ${error instanceof Error ? error.stack : error}\n`);
        process.exit(1);
    });
}
