import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { expectedTransport, IN_CONTAINER } from '../clis/client-transport';
import { CODE_SERVER_VERSION, CodeServer } from '../hosts/code-server';
import { CodeServerWindow } from '../hosts/code-server-window';
import { CLAUDE_BIN, CLAUDE_INTERACTIVE_COMMAND, prepareClaudeCode } from '../clis/claude-code-setup';
import { ContextArrival, IdeProbe } from '../hosts/ide-probe';
import { CONTEXT_SCENARIO_FILES, CONTEXT_SCENARIOS } from '../scenarios/context-scenarios';
import { DIFF_SCENARIO_FILES, DIFF_SCENARIOS } from '../scenarios/diff-scenarios';
import { Scenario } from '../scenarios/scenario';
import { AnthropicRequest, MockAnthropicApi, MockAnthropicTurn } from '../mocks/mock-anthropic-api';
import { officialGeminiDiscovery } from '../clis/official-companion';
import { never, until } from '../support/processes';
import { createSandbox, createWorkspace, geminiDiscoveryDirectory, Sandbox } from '../support/sandbox';
import { TmuxTerminal } from '../hosts/tmux-terminal';

/** code-server's `vscode.env.appName`, which the discovery files name instead of TERM_PROGRAM's "vscode". */
const CODE_SERVER_IDE = { name: 'code-server', displayName: 'code-server' };

/**
 * The VS Code extension (.vsix) installed into a sandboxed code-server 4.100.3, driven in Chromium:
 * the real Gemini CLI and Qwen Code IdeClients connect with the environment of one of its terminals,
 * inside this container too (where the official companion's Gemini CLI dials host.docker.internal and
 * never connects), the window streams its editor state, and proposals are reviewed in its diff editor.
 */
describe(`VS Code extension in code-server ${CODE_SERVER_VERSION}`, function (): void {
    this.timeout(300_000);
    let sandbox: Sandbox;
    let workspace: string;
    let server: CodeServer;
    let window: CodeServerWindow;
    let env: Record<string, string>;
    let api: MockAnthropicApi;
    let claude: TmuxTerminal | undefined;
    /** What the model answers Claude Code's main conversation. */
    let script: (request: AnthropicRequest) => MockAnthropicTurn = () => ({ text: 'OK.' });
    const probes: IdeProbe[] = [];
    const windows: CodeServerWindow[] = [];
    const probe = async (flavour: 'gemini' | 'qwen', environment: Record<string, string>) => {
        const client = new IdeProbe(flavour, environment, workspace);
        probes.push(client);
        const report = await client.connected();
        expect(report.status.status, `${flavour}: ${report.status.details}`).to.equal('connected');
        return { client, report };
    };
    const openWindow = async () => {
        const opened = await CodeServerWindow.open(sandbox, server.windowUrl(workspace));
        windows.push(opened);
        // code-server's default workspace trust: a window in a browser profile of its own asks, as for a first window.
        await opened.trustFolder();
        return opened;
    };
    const explain = async (error: Error) => {
        throw new Error(`${error.message}\n${await window.describeForFailure('code-server')}\nextension log:\n${server.extensionLog().slice(-3000)}`);
    };
    /** A story the Theia specs run too, from the same source, in this window with a Gemini CLI client of its terminal. */
    const runScenario = async (scenario: Scenario) => scenario.run({
        window, client: (await probe('gemini', env)).client, workspace, connect: async environment => (await probe('gemini', environment)).client
    }).catch(explain);

    before(async () => {
        sandbox = createSandbox();
        const markers = path.join(sandbox.root, 'markers');
        workspace = createWorkspace(sandbox, 'project', {
            'other.txt': 'one\ntwo\n', 'claude.txt': 'first\nsecond\n', ...DIFF_SCENARIO_FILES, ...CONTEXT_SCENARIO_FILES,
            // A cloned repository that tries to choose what "Run Gemini CLI" executes, to keep IDE mode on whatever the user says, and to
            // have its own agent's edits accepted unseen (every diff of this spec would then be answered before it opens).
            '.vscode/settings.json': JSON.stringify({
                'aiCliCompanion.gemini.command': path.join(markers, 'from-workspace.sh'), 'aiCliCompanion.enabled': true, 'aiCliCompanion.qwen.enabled': true,
                'aiCliCompanion.gemini.reviewPace': 'accept'
            })
        });
        fs.mkdirSync(markers);
        for (const who of ['user', 'workspace']) {
            fs.writeFileSync(path.join(markers, `from-${who}.sh`), `#!/bin/sh\necho "$@" > '${path.join(markers, who)}'\n`, { mode: 0o755 });
        }
        api = new MockAnthropicApi(request => MockAnthropicApi.isMainConversation(request) ? script(request) : MockAnthropicApi.sideAnswer(request));
        prepareClaudeCode(sandbox, await api.start(), workspace);
        server = new CodeServer(sandbox, {
            'aiCliCompanion.gemini.command': path.join(markers, 'from-user.sh'),
            'aiCliCompanion.gemini.args': ['--from', 'user settings']
        });
        await server.start();
        window = await openWindow();
        await window.openTerminal();
        env = await window.terminalEnvironment(workspace);
    });

    after(async () => {
        claude?.kill();
        await api?.stop();
        await Promise.all(probes.map(client => client.close()));
        await Promise.all(windows.map(opened => opened.close()));
        await server?.stop();
        sandbox?.dispose();
    });

    it('serves every CLI from the window\'s extension host: private discovery files that name code-server, terminal variables that name this window', async () => {
        const [host] = server.extensionHosts();
        expect(host, 'the window\'s extension host').to.be.a('number');
        const port = Number(env.GEMINI_CLI_IDE_SERVER_PORT);
        expect(env).to.include({ QWEN_CODE_IDE_SERVER_PORT: String(port), GEMINI_CLI_IDE_PID: String(host), GEMINI_CLI_IDE_WORKSPACE_PATH: workspace });
        expect(env.TERM_PROGRAM, 'code-server\'s own variable, which the discovery files make irrelevant').to.equal('vscode');
        const geminiFile = path.join(geminiDiscoveryDirectory(sandbox), `gemini-ide-server-${host}-${port}.json`);
        const qwenFile = path.join(sandbox.home, '.qwen', 'ide', `${port}.lock`);
        const claudeFile = path.join(sandbox.home, '.claude', 'ide', `${env.CLAUDE_CODE_SSE_PORT}.lock`);
        for (const file of [geminiFile, qwenFile, claudeFile]) {
            expect(fs.statSync(file).mode & 0o777, file).to.equal(0o600);
        }
        const gemini = JSON.parse(fs.readFileSync(geminiFile, 'utf8'));
        expect(gemini).to.deep.include({ port, workspacePath: workspace, ideInfo: CODE_SERVER_IDE });
        expect(gemini.stdio.args[0], 'the relay bundled in the extension').to.match(/theia-cli-companion\.ai-cli-companion-0\.1\.0\/dist\/stdio-bridge\.js$/);
        expect(JSON.parse(fs.readFileSync(qwenFile, 'utf8'))).to.deep.include({ ppid: host, ideName: 'code-server', ideInfo: CODE_SERVER_IDE });
        expect(JSON.parse(fs.readFileSync(claudeFile, 'utf8'))).to.deep.include({ pid: host, ideName: 'code-server', workspaceFolders: [workspace], transport: 'ws' });
        const secrets = [gemini.authToken, JSON.parse(fs.readFileSync(claudeFile, 'utf8')).authToken];
        const logged = server.extensionLog() + server.log;
        expect(logged).to.contain(`companion server on 127.0.0.1:${port}`);
        secrets.forEach(secret => expect(logged, 'no secret in a log').not.to.contain(secret));
        expect(Object.values(env).join('\n'), 'no secret in a terminal').not.to.contain(secrets[0]);
    });

    it('connects the real Gemini CLI and Qwen Code IdeClients from the terminal, over the stdio relay where Gemini CLI dials host.docker.internal', async () => {
        for (const flavour of ['gemini', 'qwen'] as const) {
            const { report } = await probe(flavour, env);
            expect(report.ide, flavour).to.deep.equal(CODE_SERVER_IDE);
            expect(report.diffing, `${flavour}: openDiff and closeDiff are listed`).to.equal(true);
            expect(report.transport, `the transport ${flavour} takes ${IN_CONTAINER ? 'in' : 'outside'} a container`).to.equal(await expectedTransport(flavour, env));
        }
        await window.waitForStatus(/CLI: 2 connected/).catch(explain);
    });

    for (const scenario of [...CONTEXT_SCENARIOS, ...DIFF_SCENARIOS]) {
        it(scenario.title, () => runScenario(scenario));
    }

    it('leaves an edited proposal undecided through auto-save (on by default here) and a closed tab; Review Pending Diffs brings it back, ✗ rejects it', async () => {
        // code-server, a web build of VS Code, auto-saves by default (after 1 s): saving must never accept.
        const { client } = await probe('gemini', env);
        const file = path.join(workspace, 'other.txt');
        client.openDiff(file, 'one\ntwo\nproposed\n');
        await window.waitForDiff('other.txt').catch(explain);
        await window.typeAtEndOfProposal('typed, then auto-saved');
        await until(() => /Proposal \S+ for \S+other\.txt saved in the window: still waiting/.test(server.extensionLog()), 'auto-save to save the proposal', 15_000)
            .catch(explain);
        await window.closeActiveEditor();
        await window.waitForStatus(/CLI: 1 to review/).catch(explain);
        expect(client.peekDiffOutcome('diff', file), 'no answer yet').to.equal(undefined);
        await window.runCommand('AI CLI Companion: Review Pending Diffs');
        await window.waitForDiff('other.txt').catch(explain);
        await window.clickTitleAction('Reject Diff');
        expect((await client.diffOutcome('diff', file)).result).to.deep.equal({ status: 'rejected' });
        expect(fs.readFileSync(file, 'utf8')).to.equal('one\ntwo\n');
        await window.waitForStatus(/CLI: \d+ connected/);
    });

    it('two windows on one folder: each terminal\'s CLI reaches its own window, and a proposal opens only in the window it was sent to', async () => {
        const second = await openWindow();
        await second.openTerminal();
        const secondEnv = await second.terminalEnvironment(workspace);
        expect(secondEnv.GEMINI_CLI_IDE_SERVER_PORT, 'another server').not.to.equal(env.GEMINI_CLI_IDE_SERVER_PORT);
        // Each window has an extension host of its own (code-server may briefly keep a third, a window's earlier one, while it exits).
        expect(secondEnv.GEMINI_CLI_IDE_PID, 'another extension host').not.to.equal(env.GEMINI_CLI_IDE_PID);
        expect(server.extensionHosts().map(String)).to.include(secondEnv.GEMINI_CLI_IDE_PID);
        const { client } = await probe('gemini', secondEnv);
        const file = path.join(workspace, 'other.txt');
        client.openDiff(file, 'one\ntwo\nthree\n');
        await second.waitForDiff('other.txt');
        await never(async () => await window.diffCount() > 0 && 'the first window shows a diff', 'the proposal stays in the second window', 1500);
        await second.clickTitleAction('Accept Diff');
        expect((await client.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: 'one\ntwo\nthree\n' });
    });

    it('runs "Run Gemini CLI" with the command of the user\'s settings, never the one a workspace sets; nor does its review pace count', async () => {
        const markers = path.join(sandbox.root, 'markers');
        await window.runCommand('AI CLI Companion: Run Gemini CLI');
        await until(() => fs.existsSync(path.join(markers, 'user')), 'the user\'s command to run in a new terminal', 30_000).catch(explain);
        expect(fs.readFileSync(path.join(markers, 'user'), 'utf8')).to.equal('--from user settings\n');
        expect(fs.existsSync(path.join(markers, 'workspace')), 'the workspace\'s command').to.equal(false);
        // The diffs of this spec opened for review although the workspace sets Gemini CLI's pace to "accept".
        expect(server.extensionLog(), 'a proposal accepted unseen').not.to.contain('review pace: accept automatically');
    });

    it('shows the official companion\'s container failure side by side: its discovery file (no stdio relay) leaves Gemini CLI disconnected here', async () => {
        // In code-server its terminals' TERM_PROGRAM=vscode names the IDE: only the missing relay differs from ours.
        const client = new IdeProbe('gemini', officialGeminiDiscovery(sandbox, env), workspace);
        probes.push(client);
        const report = await client.connected();
        // Inside a container the CLI dials host.docker.internal, which does not reach the window's 127.0.0.1 (gemini-cli #13627, #16540).
        expect(report.status.status, report.status.details).to.equal(IN_CONTAINER && await expectedTransport('gemini', env) === 'stdio' ? 'disconnected' : 'connected');
    });

    it('connects the real claude binary from the terminal, which proposes an Edit in the diff editor; accepted with an edit, claude writes that text', async () => {
        const file = path.join(workspace, 'claude.txt');
        const [firstHost] = server.extensionHosts();
        const claudeEnv = await window.terminalEnvironment(workspace);
        expect(JSON.parse(fs.readFileSync(path.join(sandbox.home, '.claude', 'ide', `${claudeEnv.CLAUDE_CODE_SSE_PORT}.lock`), 'utf8')).pid).to.equal(firstHost);
        const sessionsBefore = Number(/CLI: (\d+) connected/.exec(await window.statusText())?.[1] ?? 0);
        claude = new TmuxTerminal(sandbox.root, 'claude-code-server');
        // A login shell resets PATH from /etc/profile: start the installed binary by its path.
        claude.start([CLAUDE_BIN, ...CLAUDE_INTERACTIVE_COMMAND.slice(1)], claudeEnv, workspace);
        const explainClaude = async (error: Error) => explain(new Error(`${error.message}\nclaude's screen:\n${claude!.screen()}`));
        await window.waitForStatus(new RegExp(`CLI: ${sessionsBefore + 1} connected`), 90_000).catch(explainClaude);

        script = request => MockAnthropicApi.lastToolResult(request)
            ? { text: 'The line is added.' }
            : { toolUse: { name: 'Edit', input: { file_path: file, old_string: 'second\n', new_string: 'second\nthird\n' } } };
        await claude.submit('Add a third line');
        await window.waitForDiff('claude.txt', 60_000).catch(explainClaude);
        await window.typeAtEndOfProposal('typed in code-server');
        await window.clickTitleAction('Accept Diff');
        await until(() => fs.readFileSync(file, 'utf8') === 'first\nsecond\nthird\ntyped in code-server', 'claude to write the accepted text', 60_000, 250)
            .catch(explainClaude);
        await claude.waitFor(/The line is added\./, 'the model\'s answer after the edit', 30_000);
    });

    it('"Send Selection to Claude Code" from the editor\'s context menu puts the file and its selected lines into claude\'s prompt; the Explorer, the file', async () => {
        expect(claude, 'claude, started by the test before').not.to.equal(undefined);
        await window.openFile('claude.txt');
        await window.page.keyboard.press('Control+Home');
        await window.page.keyboard.press('Shift+ArrowDown');
        await window.page.keyboard.press('Shift+ArrowDown');
        await window.waitForCursorStatus(3, 1);
        await window.pickFromContextMenuAtLine('first', 'Send Selection to Claude Code');
        await claude!.waitFor(/@\S*claude\.txt#L1-2/, 'the mention in Claude\'s prompt', 20_000)
            .catch(error => explain(new Error(`${error.message}\nclaude's screen:\n${claude!.screen()}`)));
        // From the Explorer: the whole file.
        await window.pickFromExplorerContextMenu('claude.txt', 'Send Selection to Claude Code');
        await claude!.waitFor(/claude\.txt#L1-2\s+@\S*claude\.txt(?!#)/, 'the file mention after the line mention', 20_000)
            .catch(error => explain(new Error(`${error.message}\nclaude's screen:\n${claude!.screen()}`)));
    });

    it('turns a CLI off when the user says so, though the workspace\'s .vscode/settings.json turns it on', async () => {
        const qwenDir = path.join(sandbox.home, '.qwen', 'ide');
        const qwenFile = path.join(qwenDir, `${env.QWEN_CODE_IDE_SERVER_PORT}.lock`);
        expect(fs.existsSync(qwenFile), 'Qwen Code served').to.equal(true);
        await window.toggleSetting('aiCliCompanion.qwen.enabled');
        await until(() => !fs.existsSync(qwenFile), 'Qwen Code\'s discovery file to go, whatever the workspace says', 10_000).catch(explain);
        await window.toggleSetting('aiCliCompanion.qwen.enabled');
        await until(() => fs.existsSync(qwenFile), 'Qwen Code served again once the user turns it back on', 10_000).catch(explain);
    });

    it('stops when the user turns it off: every discovery file goes, the status bar says so; back on, a new server', async () => {
        const files = () => [
            path.join(geminiDiscoveryDirectory(sandbox), `gemini-ide-server-${env.GEMINI_CLI_IDE_PID}-${env.GEMINI_CLI_IDE_SERVER_PORT}.json`),
            path.join(sandbox.home, '.qwen', 'ide', `${env.QWEN_CODE_IDE_SERVER_PORT}.lock`),
            path.join(sandbox.home, '.claude', 'ide', `${env.CLAUDE_CODE_SSE_PORT}.lock`)
        ].filter(file => fs.existsSync(file));
        expect(files()).to.have.length(3);
        await window.toggleSetting('aiCliCompanion.enabled');
        await window.waitForStatus(/CLI Companion: off/).catch(explain);
        await until(() => files().length === 0, 'the window\'s discovery files to go', 10_000);
        await window.toggleSetting('aiCliCompanion.enabled');
        await window.waitForStatus(/CLI: 0 connected/).catch(explain);
        const host = server.extensionHosts()[0];
        await until(() => fs.readdirSync(geminiDiscoveryDirectory(sandbox)).some(name => name.startsWith(`gemini-ide-server-${host}-`)), 'a new discovery file', 10_000);
    });

    it('removes the files of a window whose extension host was killed when the next window starts, and no one else\'s', async () => {
        const [killed, survivor] = server.extensionHosts();
        const filesOf = (pid: number) => fs.readdirSync(geminiDiscoveryDirectory(sandbox)).filter(name => name.startsWith(`gemini-ide-server-${pid}-`));
        expect(filesOf(killed)).to.have.length(1);
        process.kill(killed, 'SIGKILL');
        await until(() => !server.extensionHosts().includes(killed), 'the extension host to end', 10_000);
        expect(filesOf(killed), 'SIGKILL leaves them behind').to.have.length(1);
        await openWindow();
        await until(() => filesOf(killed).length === 0, 'the stale file to go', 30_000).catch(explain);
        expect(filesOf(survivor), 'the live window keeps its file').to.have.length(1);
    });
});

/**
 * The same extension in a folder the user does not trust (code-server's default: workspace trust on,
 * the user answers "No" at the start): the CLIs are still served and told the folder is not trusted,
 * and "Run Gemini CLI" asks before it starts anything.
 */
describe(`VS Code extension in code-server ${CODE_SERVER_VERSION}, in a folder the user does not trust`, function (): void {
    this.timeout(300_000);
    let sandbox: Sandbox;
    let workspace: string;
    let server: CodeServer;
    let window: CodeServerWindow;
    let client: IdeProbe | undefined;
    let marker: string;

    before(async () => {
        sandbox = createSandbox();
        workspace = createWorkspace(sandbox, 'cloned', { 'README.md': '# cloned\n' });
        marker = path.join(sandbox.root, 'ran');
        const command = path.join(sandbox.root, 'gemini-stand-in.sh');
        fs.writeFileSync(command, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
        server = new CodeServer(sandbox, { 'aiCliCompanion.gemini.command': command });
        await server.start();
        window = await CodeServerWindow.open(sandbox, server.windowUrl(workspace));
        await window.answerDialog(/No, I don.t trust/);
    });

    after(async () => {
        await client?.close();
        await window?.close();
        await server?.stop();
        sandbox?.dispose();
    });

    it('serves the CLIs in Restricted Mode and tells them the folder is not trusted', async () => {
        await window.openTerminal();
        const env = await window.terminalEnvironment(workspace);
        client = new IdeProbe('gemini', env, workspace);
        const updates: ContextArrival[] = [];
        client.watchContext(update => updates.push(update));
        const report = await client.connected();
        expect(report.status.status, report.status.details).to.equal('connected');
        await window.openFile('README.md');
        await until(() => updates.some(update => (update.context as { workspaceState?: { isTrusted?: boolean } }).workspaceState?.isTrusted === false),
            'a context update with isTrusted false', 20_000);
    });

    it('asks before "Run Gemini CLI" starts anything: Cancel runs nothing, Run Anyway runs the user\'s command', async () => {
        await window.runCommand('AI CLI Companion: Run Gemini CLI');
        await window.answerDialog('Cancel');
        await never(() => fs.existsSync(marker) && 'the command ran', 'nothing runs after Cancel', 2000);
        await window.runCommand('AI CLI Companion: Run Gemini CLI');
        await window.answerDialog('Run Anyway');
        await until(() => fs.existsSync(marker), 'the user\'s command to run', 30_000);
    });
});

