import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { CODE_SERVER_VERSION, CodeServer } from '../hosts/code-server';
import { CodeServerWindow } from '../hosts/code-server-window';
import { IdeProbe } from '../hosts/ide-probe';
import { REVIEW_SCENARIO_FILES, REVIEW_SCENARIOS } from '../scenarios/review-scenarios';
import { until } from '../support/processes';
import { createSandbox, createWorkspace, geminiDiscoveryDirectory, Sandbox } from '../support/sandbox';

const NUMBERS = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
const PROPOSAL = 'one\nTWO\nthree\nfour\nFIVE\nsix\nseven\neight\nnine\n';

/**
 * The review workflow of the Theia host, in the VS Code host (code-server, default settings): the
 * review pace set from the status bar menu, Pending Changes as a tree view with its actions, Undo of
 * a change accepted automatically, change by change across one session's proposals, and the log and
 * diagnostic report. The real Gemini CLI and Qwen Code IdeClients propose from the window's terminal.
 */
describe(`VS Code extension in code-server ${CODE_SERVER_VERSION}: the review workflow`, function (): void {
    this.timeout(300_000);
    let sandbox: Sandbox;
    let workspace: string;
    let server: CodeServer;
    let window: CodeServerWindow;
    let gemini: IdeProbe;
    let env: Record<string, string>;
    const probes: IdeProbe[] = [];

    const explain = async (error: Error) => {
        throw new Error(`${error.message}\n${await window.describeForFailure('code-server-review')}\nextension log:\n${server.extensionLog().slice(-3000)}`);
    };
    const connect = async (flavour: 'gemini' | 'qwen') => {
        const client = new IdeProbe(flavour, env, workspace);
        probes.push(client);
        const report = await client.connected();
        expect(report.status.status, `${flavour}: ${report.status.details}`).to.equal('connected');
        return client;
    };
    before(async () => {
        sandbox = createSandbox();
        workspace = createWorkspace(sandbox, 'project', {
            'numbers.txt': NUMBERS, 'other.txt': 'x\n', ...REVIEW_SCENARIO_FILES
        });
        server = new CodeServer(sandbox);
        await server.start();
        window = await CodeServerWindow.open(sandbox, server.windowUrl(workspace));
        await window.trustFolder();
        await window.openTerminal();
        env = await window.terminalEnvironment(workspace);
        gemini = await connect('gemini');
    });

    afterEach(async () => {
        // Each story starts with nothing waiting.
        if (window && await window.pendingCount() > 0) {
            await window.runCommand('AI CLI Companion: Close All Diffs');
            await window.waitForStatus(/CLI: \d+ connected/);
        }
    });

    after(async () => {
        await Promise.all(probes.map(client => client.close()));
        await window?.close();
        await server?.stop();
        sandbox?.dispose();
    });

    // The stories the Theia spec runs too, from the same source.
    for (const scenario of REVIEW_SCENARIOS) {
        it(scenario.title, () => scenario.run({
            window, client: gemini, workspace, connect: () => Promise.reject(new Error('a review scenario connects no second client'))
        }).catch(explain));
    }

    it('Pending Changes lists two CLI sessions\' proposals by session; Accept All Diffs answers each once, to its own CLI; Close All Diffs rejects what waits', async () => {
        const qwen = await connect('qwen');
        const numbers = path.join(workspace, 'numbers.txt');
        const other = path.join(workspace, 'other.txt');
        gemini.openDiff(numbers, PROPOSAL);
        await window.waitForDiff('numbers.txt').catch(explain);
        qwen.openDiff(other, 'y\n');
        await window.waitForDiff('other.txt').catch(explain);
        await window.waitForStatus(/CLI: 2 to review/);
        await window.showPendingChanges();
        await until(async () => (await window.pendingRows()).length === 4, 'two sessions with a proposal each', 10_000).catch(explain);
        const rows = (await window.pendingRows()).map(row => `${row.name} ${row.description}`.trim());
        expect(rows.filter(row => /^(Gemini CLI|Qwen Code) \(\S+ \d+\.\d+\.\d+\) 1 to review$/.test(row)), rows.join(' | ')).to.have.length(2);
        await window.clickPendingTitleAction('Accept All Diffs');
        expect((await gemini.diffOutcome('diff', numbers)).result).to.deep.equal({ status: 'accepted', content: PROPOSAL });
        expect((await qwen.diffOutcome('diff', other)).result).to.deep.equal({ status: 'accepted', content: 'y\n' });
        expect(gemini.peekDiffOutcome('diff', other), 'Gemini hears nothing of Qwen\'s file').to.equal(undefined);
        await window.waitForNoDiff();

        gemini.openDiff(numbers, PROPOSAL);
        await window.waitForDiff('numbers.txt').catch(explain);
        await window.runCommand('AI CLI Companion: Close All Diffs');
        expect((await gemini.diffOutcome('diff', numbers)).result).to.deep.equal({ status: 'rejected' });
        await window.waitForNoDiff();
        await window.waitForStatus(/CLI: 2 connected/);
    });

    it('change by change with the host\'s commands: Accept Change and Reject Change move on to what is undecided, Next/Previous Change visit every change '
        + 'and wrap around; only Ctrl+S answers, with the rejected change put back', async () => {
        const file = path.join(workspace, 'numbers.txt');
        gemini.openDiff(file, 'one\nTWO\nthree\nfour\nFIVE\nsix\nseven\nEIGHT\nnine\n');
        await window.waitForDiff('numbers.txt').catch(explain);
        await until(async () => (await window.proposalText()).includes('EIGHT'), 'the proposal to show', 10_000);
        await window.focusProposal();
        await window.goTo(2, 1);
        await window.page.keyboard.press('Control+Shift+Y');
        await window.waitForCursorStatus(5, 1);
        // From the diff's context menu, as a user who does not know the keys.
        await window.pickFromContextMenuAtLine('FIVE', 'Reject Change');
        await until(async () => (await window.proposalText()).includes('\nfive\n'), 'the second change to be put back', 10_000).catch(explain);
        await window.waitForCursorStatus(8, 1);
        await window.page.keyboard.press('Alt+F5');
        await window.waitForCursorStatus(2, 1);
        await window.page.keyboard.press('Shift+Alt+F5');
        await window.waitForCursorStatus(8, 1);
        expect(gemini.peekDiffOutcome('diff', file), 'no change decision answers the CLI').to.equal(undefined);
        await window.page.keyboard.press('Control+s');
        expect((await gemini.diffOutcome('diff', file)).result).to.deep.equal({
            status: 'accepted', content: 'one\nTWO\nthree\nfour\nfive\nsix\nseven\nEIGHT\nnine\n'
        });
        await window.waitForNoDiff();
    });

    it('the status bar menu copies a diagnostic report that names the host and holds no secret, and shows the log', async () => {
        await window.openStatusMenu();
        await window.pickQuickItem('Copy Diagnostic Report');
        const report = await until(async () => {
            const text = await window.clipboardText().catch(() => '');
            return text.startsWith('# CLI Companion diagnostic report') && text;
        }, 'the diagnostic report on the clipboard', 20_000).catch(explain) as string;
        expect(report).to.contain(`127.0.0.1:${env.GEMINI_CLI_IDE_SERVER_PORT}`);
        expect(report).to.match(/- code-server: \d+\.\d+\.\d+/);
        expect(report).to.match(/^- Gemini CLI: \S+ 0\.61\.0, connected /m);
        expect(report).to.contain('- aiCliCompanion.gemini.reviewPace: "open"');
        const discovery = fs.readdirSync(geminiDiscoveryDirectory(sandbox)).map(name => path.join(geminiDiscoveryDirectory(sandbox), name));
        for (const file of discovery) {
            expect(report, 'no token in the report').not.to.contain(JSON.parse(fs.readFileSync(file, 'utf8')).authToken);
        }

        await window.openStatusMenu();
        await window.pickQuickItem('Show Log');
        // The Output panel shows the extension's channel, scrolled to its latest lines (wrapped: paths break across rows).
        let shown = { channel: '', lines: '' };
        await until(async () => {
            shown = {
                channel: await window.page.locator('.panel select.monaco-select-box').first()
                    .evaluate(select => (select as HTMLSelectElement).selectedOptions[0]?.text ?? '').catch(() => ''),
                // Monaco renders spaces as U+00A0.
                lines: (await window.page.locator('.panel .output-view .view-lines').innerText().catch(() => '')).replace(/\u00a0/g, ' ')
            };
            return shown.channel === 'AI CLI Companion' && /\[info\] Diff [0-9a-f-]+ for /.test(shown.lines);
        }, 'the log in the Output panel', 10_000).catch(error => explain(new Error(`${error.message}: ${JSON.stringify(shown)}`)));
    });
});

/**
 * The diff settings a user sets to keep typing while a CLI works: diffs that open without taking the
 * keyboard, and a notification for a queued proposal, whose Review button opens it.
 */
describe(`VS Code extension in code-server ${CODE_SERVER_VERSION}: diffs that do not take the keyboard`, function (): void {
    this.timeout(300_000);
    let sandbox: Sandbox;
    let workspace: string;
    let server: CodeServer;
    let window: CodeServerWindow;
    let gemini: IdeProbe | undefined;

    before(async () => {
        sandbox = createSandbox();
        workspace = createWorkspace(sandbox, 'project', { 'notes.txt': '', 'numbers.txt': NUMBERS, 'other.txt': 'x\n' });
        server = new CodeServer(sandbox, { 'aiCliCompanion.diff.focus': 'never', 'aiCliCompanion.review.notifyQueued': true });
        await server.start();
        window = await CodeServerWindow.open(sandbox, server.windowUrl(workspace));
        await window.trustFolder();
        await window.openTerminal();
        gemini = new IdeProbe('gemini', await window.terminalEnvironment(workspace), workspace);
        expect((await gemini.connected()).status.status).to.equal('connected');
    });

    after(async () => {
        await gemini?.close();
        await window?.close();
        await server?.stop();
        sandbox?.dispose();
    });

    const explain = async (error: Error) => {
        throw new Error(`${error.message}\n${await window.describeForFailure('code-server-focus')}\nextension log:\n${server.extensionLog().slice(-3000)}`);
    };

    it('with aiCliCompanion.diff.focus "never", a proposal opens beside the file the user types in, and every key stays in that file', async () => {
        await window.openFile('notes.txt');
        await window.page.keyboard.type('before, ');
        const file = path.join(workspace, 'numbers.txt');
        gemini!.openDiff(file, PROPOSAL);
        await until(async () => await window.diffCount() === 1, 'the diff to open', 20_000).catch(explain);
        await window.page.keyboard.type('after.');
        const notes = path.join(workspace, 'notes.txt');
        await until(() => fs.readFileSync(notes, 'utf8') === 'before, after.', 'auto-save to write every typed key, in order', 15_000)
            .catch(error => explain(new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(notes, 'utf8'))}`)));
        await window.page.locator('.editor-group-container', { has: window.page.locator('.monaco-diff-editor') }).locator('.tab', { hasText: 'numbers.txt' }).click();
        await window.acceptDiff();
        expect((await gemini!.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: PROPOSAL });
    });

    it('with aiCliCompanion.review.notifyQueued, a queued proposal is announced; the notification\'s Review opens it', async () => {
        await window.setReviewPace('Gemini CLI', 'Queue quietly');
        const file = path.join(workspace, 'other.txt');
        gemini!.openDiff(file, 'y\n');
        const notification = window.page.locator('.notification-list-item', { hasText: 'proposes a change to other.txt; it waits in Pending Changes.' });
        await notification.waitFor({ timeout: 20_000 }).catch(explain);
        expect(await window.diffCount(), 'nothing opened by itself').to.equal(0);
        await notification.locator('.monaco-button', { hasText: 'Review' }).click();
        await until(async () => await window.diffCount() === 1, 'Review to open the diff', 10_000).catch(explain);
        await window.page.locator('.editor-group-container', { has: window.page.locator('.monaco-diff-editor') }).locator('.tab', { hasText: 'other.txt' }).click();
        await window.rejectDiff();
        expect((await gemini!.diffOutcome('diff', file)).result).to.deep.equal({ status: 'rejected' });
    });
});
