import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../hosts/theia-backend';
import { BENCH_SECTIONS, parseSections, runBenchmarks, toMarkdown, withResults } from './run-benchmarks';

/**
 * The benchmark suite, quick: every measurement runs end to end against its baseline. It asserts
 * that each figure was measured, never how fast anything was (these machines are shared and noisy).
 */
describe('Benchmarks (smoke: few repetitions, no assertion on time)', function (): void {
    // The quick run builds the container image when no spec before it did (cold: about 4 minutes).
    this.timeout(1_200_000);

    it('measures every figure and its baseline, and renders the table', async () => {
        const run = await runBenchmarks(true);
        const ids = run.figures.map(figure => figure.id);
        // In a container the CLI takes the stdio relay; a second IdeClient is then timed over loopback too.
        const inContainer = fs.existsSync('/.dockerenv') || fs.existsSync('/run/.containerenv');
        expect(ids).to.deep.equal([
            'server-throughput', 'server-request-latency', 'fan-out-1', 'fan-out-10', 'fan-out-50', 'context-client-share',
            'windows-1', 'windows-10', 'windows-30', 'acp-tool-output-time', 'acp-tool-output-memory',
            'snapshot-generated-first', 'snapshot-generated-next', 'snapshot-real-first', 'snapshot-real-next', 'checkpoint-storage-size', 'checkpoint-storage-turn',
            'context-latency', ...(inContainer ? ['context-latency-loopback'] : []),
            'diff-latency-1k', 'diff-latency-100k', 'diff-latency-1m', 'diff-latency-10m', 'typing-cost', 'acp-turn-fake', 'acp-turn-gemini',
            'vscode-startup', 'vscode-context-latency', 'vscode-diff-latency-1k', 'vscode-diff-latency-100k', 'vscode-diff-latency-1m',
            'startup-backend', 'startup-frontend', 'startup-ide-companion-backend', 'startup-ide-companion-frontend', 'startup-acp-chat-backend',
            'startup-acp-chat-frontend', 'startup-agent-tasks-backend', 'startup-agent-tasks-frontend', 'startup-theia-ai-backend', 'startup-theia-ai-frontend',
            'image-cold-start'
        ]);
        for (const figure of run.figures) {
            for (const summary of [figure.measured, figure.baseline]) {
                expect(summary.n, figure.id).to.be.greaterThan(0);
                expect(Number.isFinite(summary.median) && Number.isFinite(summary.p95), figure.id).to.equal(true);
                expect(summary.p95, figure.id).to.be.at.least(summary.median);
            }
            expect(figure.baselineName, figure.id).to.be.a('string').and.not.empty;
        }
        const windows = run.figures.find(figure => figure.id === 'windows-30')!;
        expect(windows.notes).to.include({ 'discovery files': 60, ports: 30 });
        expect(run.figures.find(figure => figure.id === 'checkpoint-storage-size')!.goalMet, 'the checkpoint store stayed under its cap').to.equal(true);
        const typing = run.figures.find(figure => figure.id === 'typing-cost')!;
        expect(typing.notes!['editor events handled'], 'the companion saw the keystrokes').to.be.greaterThan(0);
        for (const id of ['snapshot-generated-next', 'snapshot-real-next']) {
            expect(run.figures.find(figure => figure.id === id)!.notes, 'the snapshots saw the ten changed files').to.include({ 'changes found': '10' });
        }
        // The breakdowns were taken where the frames left and arrived in the page.
        for (const id of ['acp-turn-fake', 'acp-turn-gemini']) {
            expect(Object.keys(run.figures.find(figure => figure.id === id)!.notes!).filter(key => key.startsWith('ours:')), id).to.have.length(4);
        }
        const context = run.figures.find(figure => figure.id === 'context-latency')!;
        expect(context.baselineName).to.contain('bench-floor');
        expect(context.notes!['floor: frame → SSE client (median)']).to.be.a('number');
        // The backend's and the page's timing marks were recorded and split the figures (four spans, six for a diff).
        const split = (id: string, prefix: string) => String(Object.entries(run.figures.find(figure => figure.id === id)!.notes!)
            .find(([key]) => key.startsWith(prefix))?.[1]).split('; ').map(Number);
        expect(split('context-latency', 'ours, by the backend\'s marks').filter(Number.isFinite), 'context marks').to.have.length(4);
        expect(split('acp-turn-fake', 'ours, by the backend\'s marks: page').filter(Number.isFinite), 'turn marks').to.have.length(3);
        expect(split('diff-latency-1k', 'by our timing marks').filter(Number.isFinite), 'diff marks').to.have.length(6);
        expect(split('diff-latency-1k', 'Theia\'s own diff editor').filter(Number.isFinite), 'Theia\'s own diff').to.have.length(2);
        expect(run.figures.find(figure => figure.id === 'vscode-startup')!.notes!['its status item shown (navigation →, median ms)']).to.be.greaterThan(0);
        // In code-server too: the extension host's marks (read by the floor extension) and VS Code's own diff editor.
        expect(split('vscode-context-latency', 'by our timing marks').filter(Number.isFinite), 'VS Code host context marks').to.have.length(3);
        expect(split('vscode-diff-latency-1k', 'by our timing marks').filter(Number.isFinite), 'VS Code host diff marks').to.have.length(4);
        expect(split('vscode-diff-latency-1k', 'VS Code\'s own diff editor').filter(Number.isFinite), 'VS Code\'s own diff').to.have.length(2);
        const table = toMarkdown(run);
        // The document takes the table in its results section and keeps the rest.
        const document = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'BENCHMARKS.md'), 'utf8');
        const updated = withResults(document, table);
        expect(updated).to.contain(table).and.to.contain('## Goals and how each figure is measured').and.to.contain(`of commit ${run.commit}`);
        expect(withResults(updated, table)).to.equal(updated);
        // A header row and a separator row, then one row per figure.
        expect(table.split('\n').filter(line => line.startsWith('| ')).length).to.equal(run.figures.length + 2);
    });

    it('runs the parts named with --only, in their order, and refuses an unknown one', () => {
        expect(parseSections(['--quick'])).to.deep.equal(BENCH_SECTIONS);
        expect(parseSections(['--only', 'startup,browser'])).to.deep.equal(['browser', 'startup']);
        expect(() => parseSections(['--only', 'browsers'])).to.throw('--only takes a comma-separated list of server, snapshots, browser, vscode, startup, image; got "browsers"');
        expect(() => parseSections(['--only'])).to.throw('got ""');
    });
});
