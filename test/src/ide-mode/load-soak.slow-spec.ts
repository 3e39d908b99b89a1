import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { connectTestClient, TestClient } from '@theia-cli-companion/ide-companion-server/lib/node/test';
import { IdeProbe, ProbeReport } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { createSandbox, createWorkspace, Sandbox, geminiDiscoveryDirectory } from '../support/sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

const CURRENT_TAB = '#theia-main-content-panel .lm-TabBar-tab.lm-mod-current';
const SDK_SESSIONS = 48;
/** Seconds of load before the memory baseline is taken, and of load measured against it (SOAK_SECONDS for a longer run). */
const WARM_UP_SECONDS = 30;
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const KEY_INTERVAL_MS = 50;
const DIFF_EVERY_MS = 10000;
const LINES = 300;

interface OpenFile { path: string; isActive?: boolean; cursor?: { line: number; character: number }; selectedText?: string }
interface Context { workspaceState?: { openFiles?: OpenFile[]; isTrusted?: boolean } }
interface ExpectedOutcome { session: number; file: string; accepted: boolean; content: string }

const lineText = (n: number) => `line ${n}: the quick brown fox jumps over the lazy dog ${'#'.repeat(n % 17)}`;

/** A tiny deterministic generator, so a failing run can be replayed. */
function random(seed: number): () => number {
    let state = seed;
    return () => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state / 2147483648;
    };
}

function rssKiB(pid: number): number {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(match![1]);
}

/**
 * Fifty CLI sessions on one window (48 MCP SDK clients, the real Gemini CLI and Qwen Code
 * IdeClients) while the user moves the cursor every 50 ms for minutes and CLIs propose diffs that
 * the user accepts or rejects in between: every session ends with the editor's final state, every
 * diff outcome reaches exactly the session that asked, and the backend's memory does not grow.
 */
describe('Load and soak: 50 sessions on one window under minutes of editor activity and diffs', function (): void {
    this.timeout((WARM_UP_SECONDS + SOAK_SECONDS) * 1000 + 300000);
    let sandbox: Sandbox;
    let workspace: string;
    let backend: TheiaBackend;
    let window: TheiaWindow;
    const clients: TestClient[] = [];
    const probes: IdeProbe[] = [];

    before(async () => {
        sandbox = createSandbox();
        workspace = createWorkspace(sandbox, 'project', {
            'src/big.ts': Array.from({ length: LINES }, (_, i) => lineText(i + 1)).join('\n') + '\n',
            'soak/.keep': ''
        });
        // Without a limit V8 sizes its heap lazily on a 24 GiB machine: the RSS of a process that
        // keeps allocating short-lived objects climbs for minutes with nothing live behind it. With
        // a limit the collector has to work, so RSS follows live memory: a leak grows it or ends
        // the process out of memory, and either fails this test.
        backend = new TheiaBackend(sandbox, workspace, undefined, ['--max-old-space-size=256']);
        await backend.start();
    });

    after(async () => {
        await Promise.all(clients.map(({ client }) => client.close().catch(() => undefined)));
        await Promise.all(probes.map(probe => probe.close()));
        await window?.close();
        await backend?.stop();
        sandbox?.dispose();
    });

    it('keeps every session current, routes every diff outcome to its session, and holds its memory', async () => {
        window = await TheiaWindow.open(sandbox, backend.url);
        await window.openTerminal();
        const env = await window.terminalEnvironment(workspace);
        const port = Number(env.GEMINI_CLI_IDE_SERVER_PORT);
        const discovery = path.join(geminiDiscoveryDirectory(sandbox), `gemini-ide-server-${backend.pid}-${port}.json`);
        const token = JSON.parse(fs.readFileSync(discovery, 'utf8')).authToken as string;

        for (let i = 0; i < SDK_SESSIONS; i++) {
            clients.push(await connectTestClient(port, token, `soak-client-${i}`));
        }
        probes.push(new IdeProbe('gemini', env, workspace), new IdeProbe('qwen', env, workspace));
        for (const probe of probes) {
            expect((await probe.connected()).status.status).to.equal('connected');
        }
        await window.waitForStatus(/CLI 50$/, 30000);

        const big = path.join(workspace, 'src', 'big.ts');
        await window.openFile('src/big.ts');
        const next = random(20261201);
        const expected: ExpectedOutcome[] = [];
        let diffs = 0;

        const refocusEditor = async () => {
            const inEditor = await window.page.evaluate(() => !!document.activeElement?.closest('.monaco-editor:not(.monaco-diff-editor *)'));
            if (!inEditor) {
                await window.page.locator('#theia-main-content-panel .monaco-editor .view-lines').first().click();
            }
        };

        /** One or two sessions propose; the user decides each in the diff editor, newest tab first. */
        const diffRound = async () => {
            const count = next() < 0.5 ? 1 : 2;
            const round: ExpectedOutcome[] = [];
            for (let k = 0; k < count; k++) {
                const n = ++diffs;
                const session = Math.floor(next() * SDK_SESSIONS);
                const file = path.join(workspace, 'soak', `proposal-${n}.txt`);
                const content = `proposal ${n} from session ${session}\r\n${'x'.repeat(n * 97)}\n`;
                const answer = await clients[session].client.callTool({ name: 'openDiff', arguments: { filePath: file, newContent: content } });
                expect(answer.isError, JSON.stringify(answer)).to.not.equal(true);
                await until(async () => (await window.page.locator(CURRENT_TAB).innerText()).includes(`proposal-${n}.txt`), `the diff of proposal-${n}.txt in front`, 20000);
                round.push({ session, file, accepted: next() < 0.5, content });
            }
            for (const outcome of round.reverse()) {
                // The tab in front is the newest open diff: Theia activates the previous tab when one closes.
                await until(async () => (await window.page.locator(CURRENT_TAB).innerText()).includes(path.basename(outcome.file)),
                    `the diff of ${path.basename(outcome.file)} in front`, 20000);
                await window.page.locator(`#theia-main-content-panel .lm-TabBar-toolbar .codicon-${outcome.accepted ? 'check' : 'close'}`).first().click();
                await until(async () => !(await window.page.locator('#theia-main-content-panel .lm-TabBar-tab').allInnerTexts()).some(t => t.includes(path.basename(outcome.file))),
                    `the diff of ${path.basename(outcome.file)} to close`, 20000);
                expected.push(outcome);
            }
            await refocusEditor();
        };

        const keys = ['ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft', 'End', 'Home', 'Shift+ArrowRight', 'Shift+ArrowDown', 'PageDown', 'PageUp'];
        let keystrokes = 0;
        const load = async (seconds: number, samples?: number[]) => {
            const end = Date.now() + seconds * 1000;
            let nextDiff = Date.now() + DIFF_EVERY_MS / 2;
            let nextSample = Date.now();
            while (Date.now() < end) {
                const started = Date.now();
                await window.page.keyboard.press(keys[Math.floor(next() * keys.length)]);
                keystrokes++;
                if (Date.now() >= nextDiff) {
                    await diffRound();
                    nextDiff = Date.now() + DIFF_EVERY_MS;
                }
                if (samples && Date.now() >= nextSample) {
                    samples.push(rssKiB(backend.pid));
                    nextSample = Date.now() + 5000;
                }
                await new Promise(resolve => setTimeout(resolve, Math.max(0, KEY_INTERVAL_MS - (Date.now() - started))));
            }
        };

        await load(WARM_UP_SECONDS);
        const baselineKiB = rssKiB(backend.pid);
        const samples: number[] = [];
        await load(SOAK_SECONDS, samples);

        // The final state: a known position and a known selection. Theia's own Ln/Col status item
        // stops updating after a diff closed in front of the editor, so the editor's active line
        // number is read from the editor itself.
        await refocusEditor();
        await window.page.keyboard.press('Escape');
        const line = 1 + Math.floor(next() * LINES);
        await window.page.keyboard.press('Control+g');
        await window.page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
        await window.page.keyboard.type(`${line}:6`);
        await window.page.keyboard.press('Enter');
        for (let i = 0; i < 5; i++) {
            await window.page.keyboard.press('Shift+ArrowRight');
        }
        await until(async () => (await window.page.locator('#theia-main-content-panel .monaco-editor .active-line-number').allInnerTexts()).includes(String(line)),
            `the editor at line ${line}`, 10000).catch(async error => {
            throw new Error(`${error.message}; ${await window.describeForFailure('soak-final-state')}`);
        });
        const want: OpenFile = { path: big, isActive: true, cursor: { line, character: 11 }, selectedText: lineText(line).slice(5, 10) };

        const final = (context: unknown) => (context as Context | undefined)?.workspaceState?.openFiles?.[0];
        const matches = (file: OpenFile | undefined) => !!file && file.path === want.path && file.isActive === true
            && file.cursor?.line === want.cursor!.line && file.cursor?.character === want.cursor!.character && file.selectedText === want.selectedText;
        await until(() => clients.every(({ updates }) => matches(final(updates[updates.length - 1]))), 'every SDK session to hold the final state', 20000)
            .catch(error => {
                const stale = clients.map(({ updates }, i) => ({ i, last: final(updates[updates.length - 1]) })).filter(({ last }) => !matches(last));
                throw new Error(`${error.message}: want ${JSON.stringify(want)}; stale sessions: ${JSON.stringify(stale.slice(0, 3))} (${stale.length} in all)`);
            });
        for (const probe of probes) {
            const report: ProbeReport = await until(async () => {
                const status = await probe.status();
                return matches(final(status.context)) && status;
            }, 'the real IdeClients to hold the final state', 20000, 200);
            expect(report.status.status).to.equal('connected');
        }
        // Sessions agree not just on the front file: the whole last update is the same for all 48.
        const lastUpdates = clients.map(({ updates }) => JSON.stringify(updates[updates.length - 1]));
        expect(new Set(lastUpdates).size, 'distinct last updates').to.equal(1);

        // Every outcome reached the session that asked, once, with the proposal verbatim; no other session saw it.
        expect(expected.length).to.be.at.least(Math.floor((WARM_UP_SECONDS + SOAK_SECONDS) * 1000 / DIFF_EVERY_MS) - 1);
        await until(() => expected.every(({ session, file }) => clients[session].notifications.some(n => (n.params as { filePath?: string }).filePath === file)),
            'every diff outcome to arrive', 10000);
        for (const outcome of expected) {
            clients.forEach(({ notifications }, i) => {
                const received = notifications.filter(n => n.method !== 'ide/contextUpdate' && (n.params as { filePath?: string }).filePath === outcome.file);
                if (i !== outcome.session) {
                    expect(received, `session ${i} saw the outcome of session ${outcome.session}'s diff`).to.deep.equal([]);
                    return;
                }
                expect(received, path.basename(outcome.file)).to.deep.equal([outcome.accepted
                    ? { method: 'ide/diffAccepted', params: { filePath: outcome.file, content: outcome.content } }
                    : { method: 'ide/diffRejected', params: { filePath: outcome.file } }]);
            });
        }
        // The IDE never writes a file on accept by default: the CLI does.
        expect(fs.readdirSync(path.join(workspace, 'soak'))).to.deep.equal(['.keep']);

        await new Promise(resolve => setTimeout(resolve, 3000));
        const finalKiB = rssKiB(backend.pid);
        const growth = (finalKiB - baselineKiB) / baselineKiB;
        console.log(`      soak: ${keystrokes} keystrokes, ${expected.length} diffs, 50 sessions; backend RSS ${Math.round(baselineKiB / 1024)} MiB after warm-up,`
            + ` ${Math.round(finalKiB / 1024)} MiB at the end (${(growth * 100).toFixed(1)} %); samples ${samples.map(s => Math.round(s / 1024)).join(' ')} MiB`);
        expect(growth, `RSS ${baselineKiB} KiB → ${finalKiB} KiB; samples ${samples.join(', ')}`).to.be.below(0.10);
        expect(backend.log).to.not.match(/Unhandled|FATAL ERROR|heap out of memory/i);
    });
});
