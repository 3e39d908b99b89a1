import { expect } from 'chai';
import * as path from 'path';
import { IdeProbe, ProbeReport } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { Testbed } from '../support/testbed';
import { TheiaWindow } from '../hosts/theia-window';

interface ProbeFile { path: string; timestamp: number; isActive?: boolean; cursor?: { line: number; character: number }; selectedText?: string }
const filesOf = (report: ProbeReport): ProbeFile[] =>
    ((report.context as { workspaceState?: { openFiles?: ProbeFile[] } } | null)?.workspaceState?.openFiles ?? []);

/** What the user sees in the editor is what the real CLI clients receive, per window. */
describe('Editor context: the CLI knows what the user is looking at in its window', function (): void {
    this.timeout(300000);
    const bed = Testbed.install('project', {
        'src/alpha.ts': 'line one\nline two\nconst answer = 42;\nline four\n',
        'docs/beta.md': '# Beta\n\nSome text.\n',
        'gamma.txt': 'gamma\n'
    });
    let workspace: string;
    before(() => workspace = bed.workspace);

    async function windowWithProbe(flavour: 'gemini' | 'qwen' = 'gemini'): Promise<{ window: TheiaWindow; probe: IdeProbe }> {
        const window = await bed.openWindow();
        await window.openTerminal();
        const env = await window.terminalEnvironment(workspace);
        const probe = bed.probe(flavour, env, workspace);
        expect((await probe.connected()).status.status).to.equal('connected');
        return { window, probe };
    }

    async function contextMatching(probe: IdeProbe, predicate: (files: ProbeFile[]) => boolean, what: string): Promise<ProbeFile[]> {
        let last: ProbeFile[] = [];
        try {
            return await until(async () => {
                last = filesOf(await probe.status());
                return predicate(last) && last;
            }, what, 20000, 200);
        } catch (error) {
            throw new Error(`${(error as Error).message}; last context: ${JSON.stringify(last)}`);
        }
    }

    it('reports the open files, the active file, its cursor and its selection as the editor shows them', async () => {
        const { window, probe } = await windowWithProbe();
        const alpha = path.join(workspace, 'src', 'alpha.ts');
        const beta = path.join(workspace, 'docs', 'beta.md');

        await window.openFile('src/alpha.ts');
        await window.goTo(3, 7);
        let files = await contextMatching(probe, f => f[0]?.path === alpha && f[0].cursor?.line === 3 && f[0].cursor?.character === 7, 'alpha.ts at 3:7');
        expect(files[0]).to.include({ path: alpha, isActive: true });
        // Workspace trust is off in the test profile, which Theia reports as trusted.
        expect(((await probe.status()).context as { workspaceState: { isTrusted?: boolean } }).workspaceState.isTrusted).to.equal(true);

        // Select "answer" (6 characters to the right of the cursor) with the keyboard.
        for (let i = 0; i < 6; i++) {
            await window.page.keyboard.press('Shift+ArrowRight');
        }
        await window.waitForCursorStatus(3, 13);
        files = await contextMatching(probe, f => f[0]?.selectedText === 'answer', 'the selection');
        expect(files[0].cursor).to.deep.equal({ line: 3, character: 13 });

        await window.openFile('docs/beta.md');
        files = await contextMatching(probe, f => f[0]?.path === beta && f[0].isActive === true && f.length === 2, 'beta.md active, alpha.ts second');
        expect(files[1].path).to.equal(alpha);
        expect(files[1].isActive).to.not.equal(true);
        expect(files[1].cursor).to.equal(undefined);
        expect(files[0].timestamp).to.be.greaterThan(files[1].timestamp);

        // Closing the active editor takes it off the list.
        await window.closeEditor('beta.md');
        files = await contextMatching(probe, f => !f.some(file => file.path === beta), 'beta.md closed');
        expect(files.map(f => f.path)).to.deep.equal([alpha]);
    });

    it('gives a newly connected CLI the current state at once', async () => {
        const { window } = await windowWithProbe();
        await window.openFile('gamma.txt');
        await window.goTo(1, 3);
        const env = await (async () => {
            await window.openTerminal();
            return window.terminalEnvironment(workspace);
        })();
        const late = bed.probe('gemini', env, workspace);
        const report = await late.connected();
        // The state arrives on the event stream right after connecting; ask until it is there.
        const files = await contextMatching(late, f => f[0]?.path === path.join(workspace, 'gamma.txt'), 'the state for a late session');
        expect(report.status.status).to.equal('connected');
        expect(files[0]).to.include({ isActive: true });
    });

    it('keeps each window\'s files to its own CLIs (Gemini CLI in one window, Qwen Code in the other)', async () => {
        const a = await windowWithProbe('gemini');
        const b = await windowWithProbe('qwen');
        await a.window.openFile('src/alpha.ts');
        await b.window.openFile('gamma.txt');
        const filesA = await contextMatching(a.probe, f => f[0]?.path === path.join(workspace, 'src', 'alpha.ts'), 'window A state');
        const filesB = await contextMatching(b.probe, f => f[0]?.path === path.join(workspace, 'gamma.txt'), 'window B state');
        expect(filesA.map(f => f.path)).to.not.include(path.join(workspace, 'gamma.txt'));
        expect(filesB.map(f => f.path)).to.not.include(path.join(workspace, 'src', 'alpha.ts'));
    });

    it('keeps following the editor after a diff in front of it was accepted and closed', async () => {
        const { window, probe } = await windowWithProbe();
        const alpha = path.join(workspace, 'src', 'alpha.ts');
        await window.openFile('src/alpha.ts');
        await window.goTo(2, 1);
        await contextMatching(probe, f => f[0]?.path === alpha && f[0].cursor?.line === 2, 'alpha.ts at line 2');
        probe.openDiff(path.join(workspace, 'proposed.txt'), 'from the CLI\n');
        const diffEditor = window.page.locator('#theia-main-content-panel .monaco-diff-editor');
        await diffEditor.first().waitFor({ state: 'visible', timeout: 20000 });
        await window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();
        await until(async () => await diffEditor.count() === 0, 'the diff to close', 20000);
        // alpha.ts is in front again: the CLI sees it active, and its cursor moves are followed again.
        await window.page.keyboard.press('ArrowDown');
        const files = await contextMatching(probe, f => f[0]?.path === alpha && f[0].isActive === true && f[0].cursor?.line === 3, 'alpha.ts active at line 3');
        expect(files[0].cursor).to.deep.equal({ line: 3, character: 1 });
    });
});
