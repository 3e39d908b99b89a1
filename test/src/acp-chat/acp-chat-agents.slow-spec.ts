import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { until } from '../support/processes';
import { updateTheiaSettings } from '../support/sandbox';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { AcpChat } from '../hosts/acp-chat-view';
import { TheiaBackend } from '../hosts/theia-backend';
import { waitForWorkbench } from '../hosts/browser';
import { fakeAgent, fakeAgentCalls } from '../support/fake-acp-agent';

/**
 * A user-defined ACP agent (the scripted fake agent, configured in the user's settings) in the
 * chat of a real browser: the buffers it reads, the terminals it runs, Stop, a crash, a missing agent.
 */
describe('ACP chat: user-defined agents, their file reads, terminals, cancel and crashes', function (): void {
    this.timeout(300000);
    let agentLog = '';
    let otherLog = '';
    let loaderLog = '';
    const files = {
        'notes.md': '# Notes\n', 'alpha.txt': 'alpha before\n', 'beta.txt': 'beta before\n', 'gamma.txt': '', 'delta.txt': '', 'epsilon.txt': 'epsilon before\n'
    };
    const bed = AcpChatTestbed.install(files, sandbox => {
        agentLog = path.join(sandbox.tmp, 'fake-agent.jsonl');
        otherLog = path.join(sandbox.tmp, 'other-agent.jsonl');
        loaderLog = path.join(sandbox.tmp, 'loader-agent.jsonl');
        updateTheiaSettings(sandbox, {
            'ai-features.mcp.mcpServers': { listed: { command: 'node', args: ['listed-server.js'], env: { LEVEL: 'debug' } } },
            'ai-features.chat.defaultChatAgent': 'Fake',
            'aiCliCompanion.acp.agents': [
                fakeAgent('Fake', agentLog),
                // The same scripted agent under another name and log: a second agent a chat can change to.
                fakeAgent('Other', otherLog),
                // One that keeps no sessions of its own to resume: a reopened chat loads its session (which replays it).
                fakeAgent('Loader', loaderLog, { FAKE_AGENT_NO_SESSION_STORE: '1' }),
                { name: 'Missing', command: 'no-such-acp-agent', installCommand: 'npm install -g no-such-acp-agent' }
            ]
        });
    });

    beforeEach(() => bed.chat.newChat());

    const agentCalls = (log = agentLog) => fakeAgentCalls(log);

    it('renders every kind of update: markdown, thoughts, a plan, tool calls, usage, and offers the agent\'s commands after "/"', async () => {
        const response = await bed.chat.send('stream');
        await bed.chat.finished(response);
        const text = await bed.chat.text(response);
        expect(text).to.match(/^Thinking\n\nHello world\n/);
        expect(text).to.match(/Done\.\n+Context after this turn: 1\.2k of 100k tokens · \$0\.01$/);
        expect(await response.locator('.theia-ResponseNode strong', { hasText: 'world' }).count(), 'markdown rendered').to.equal(1);
        expect(text).to.contain('Plan\n\n☑ Read the file\n▶ Change it (in progress)\n☐ Run the tests');
        expect(text).to.contain('Searching for TODO (search, completed)');
        expect(text).to.contain('call-2 (read, failed)');
        expect(await response.locator('.theia-thinking, details').count(), 'the thought is a collapsible part').to.be.greaterThan(0);
        expect(text).to.not.contain('Thinking about it.');
        await until(async () => await bed.window.page.locator('#chat-view-widget .acp-session-usage').innerText().catch(() => '') === 'Context: 1.2k of 100k tokens (1%) · $0.01',
            'the usage above the input', 10000);
        await bed.window.page.locator('#chat-view-widget .theia-ChatInput-Editor .native-edit-context, #chat-view-widget .theia-ChatInput-Editor textarea').first().focus();
        await bed.window.page.keyboard.type('/');
        const suggestion = bed.window.page.locator('#chat-view-widget .suggest-widget .monaco-list-row', { hasText: 'init' });
        await suggestion.first().waitFor({ state: 'visible', timeout: 20000 });
        await bed.window.page.keyboard.press('Escape');
        await bed.window.page.keyboard.press('Backspace');
    });

    it('reads a file from its open editor, unsaved edits included (with auto-save off: else no edit stays unsaved)', async () => {
        await bed.window.changeSettings(bed.sandbox, { 'files.autoSave': 'off' });
        try {
            await bed.window.openFile('notes.md');
            await bed.window.page.keyboard.press('Control+End');
            await bed.window.page.keyboard.type('typed but not saved');
            const response = await bed.chat.send(`read ${path.join(bed.workspace, 'notes.md')}`);
            await bed.chat.finished(response);
            expect(await bed.chat.text(response)).to.contain(JSON.stringify('# Notes\ntyped but not saved'));
            expect(fs.readFileSync(path.join(bed.workspace, 'notes.md'), 'utf8')).to.equal('# Notes\n');
        } finally {
            await bed.window.changeSettings(bed.sandbox, { 'files.autoSave': undefined });
        }
    });

    it('links #file and #selection for an agent that takes no embedded context, the lines in the link, and says so in the chat', async () => {
        await bed.window.openFile('notes.md');
        await bed.window.goTo(1, 1);
        await bed.window.page.keyboard.press('Shift+End');
        const response = await bed.chat.send('echo #file:notes.md and #selection', true);
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('notes.md (link: the agent reads it)').and.to.contain('notes.md:1 (link: the agent reads it)');
        const prompt: { type: string; uri?: string; text?: string }[] = agentCalls().filter(call => call.method === 'session/prompt').pop()!.params.prompt;
        const notes = `file://${path.join(fs.realpathSync(bed.workspace), 'notes.md')}`;
        expect(prompt.filter(block => block.type === 'resource_link').map(block => block.uri)).to.deep.equal([notes, `${notes}#L1`]);
        expect(prompt[0].text).to.match(/^echo \S*notes\.md and \S*notes\.md:1$/);
        expect(prompt.some(block => block.type === 'resource'), 'nothing embedded').to.equal(false);
    });

    it('gives the agent the MCP servers of the user\'s Theia AI settings next to the IDE\'s own', async () => {
        const response = await bed.chat.send('echo servers');
        await bed.chat.finished(response);
        const created = agentCalls().filter(call => call.method === 'session/new').pop()!;
        const servers: { name: string; command?: string; args?: string[]; env?: unknown[] }[] = created.params.mcpServers;
        expect(servers.map(server => server.name)).to.deep.equal(['theia', 'listed']);
        expect(servers[1]).to.deep.equal({ name: 'listed', command: 'node', args: ['listed-server.js'], env: [{ name: 'LEVEL', value: 'debug' }] });
    });

    it('renders a 50,000-line tool output as a few screens, and opens the whole text on demand', async () => {
        const heap = () => bed.window.page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
        const before = await heap();
        const response = await bed.chat.send('flood 50000');
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('Flooded.');
        const rendered = await response.evaluate(node => node.textContent?.length ?? 0);
        expect(rendered, 'characters rendered for the response').to.be.lessThan(64 * 1024);
        console.log(`    (50,000-line tool output: ${rendered} characters rendered; page heap ${((await heap() - before) / 1048576).toFixed(1)} MiB more)`);

        await bed.window.runCommand('CLI Companion: Show Full Tool Output');
        const tab = bed.window.page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: 'Print many lines' });
        await tab.waitFor({ state: 'visible', timeout: 20000 });
        const lines = bed.window.page.locator('#theia-main-content-panel .lm-DockPanel-widget:visible .monaco-editor .view-lines').first();
        // Monaco renders spaces as U+00A0.
        const shown = async () => (await lines.innerText()).replace(/\u00a0/g, ' ');
        await until(async () => (await shown()).includes('output line 1'), 'the output in an editor', 20000)
            .catch(async error => { throw new Error(`${error.message}; ${await bed.window.describeForFailure('tool-output')}`); });
        await lines.click();
        await bed.window.page.keyboard.press('Control+End');
        await until(async () => (await shown()).includes('output line 50000'), 'the last of the 50,000 lines in the editor', 20000);
    });

    it('runs its command in a Theia terminal the user can watch, and gets the output and exit code', async () => {
        const response = await bed.chat.send('terminal echo from-the-agent; exit 3');
        await bed.chat.finished(response);
        const reported = JSON.parse((await bed.chat.text(response)).match(/\{"exit".*\}/)![0]);
        expect(reported.exit).to.deep.equal({ exitCode: 3, signal: null });
        expect(reported.output.output).to.equal('from-the-agent\n');
        const tab = bed.window.page.locator('.lm-TabBar-tab', { hasText: 'Fake: sh -c echo from-the-agent' });
        await tab.first().waitFor({ state: 'attached', timeout: 20000 });
    });

    it('Stop cancels the turn, withdraws its open question, and the next message is answered', async () => {
        const response = await bed.chat.send('ask');
        const question = response.locator('.theia-QuestionPartRenderer-root');
        await question.waitFor({ state: 'visible', timeout: 30000 });
        expect(await question.innerText()).to.contain('Fake asks to run: rm -rf build');
        await bed.chat.stop();
        await until(() => agentCalls().some(call => call.method === 'session/cancel'), 'session/cancel to reach the agent', 20000);
        await until(async () => (await question.locator('button.theia-QuestionPartRenderer-option:disabled').count()) === 2, 'the question to be withdrawn', 20000)
            .catch(async error => { throw new Error(`${error.message}; ${await bed.window.describeForFailure('acp-stop')}: ${await question.innerHTML()}`); });
        const next = await bed.chat.send('echo still listening');
        await bed.chat.finished(next);
        expect(await bed.chat.text(next)).to.contain('echo still listening');
    });

    it('says so when the agent crashes, and the next message restarts it', async () => {
        const initializedBefore = agentCalls().filter(call => call.method === 'initialize').length;
        const crashed = await bed.chat.send('crash');
        await bed.chat.finished(crashed);
        const error = await crashed.locator('.theia-ChatPart-Error-message').innerText();
        expect(error).to.match(/exited with code 3/);
        expect(error).to.contain('fatal: simulated crash of the fake agent');
        expect(error).to.contain('The next message restarts the agent.');
        expect((await bed.window.notifications()).some(text => /Chat request failed: .*exited with code 3/.test(text))).to.equal(true);
        const next = await bed.chat.send('echo back again');
        await bed.chat.finished(next);
        expect(await bed.chat.text(next)).to.contain('echo back again');
        expect(agentCalls().filter(call => call.method === 'initialize').length - initializedBefore).to.equal(2);
    });

    it('says in the answer, once per chat, when the agent asks for something the chat does not support; the agent is told so and the turn goes on', async () => {
        const response = await bed.chat.send('unsupported');
        await bed.chat.finished(response);
        const text = await bed.chat.text(response);
        expect(text).to.contain('Fake asked for x-future/ask, which this chat does not support yet; it was told so ("method not found").');
        expect(text, 'what the agent got back').to.contain('x-future/ask: error -32601, _fake/hint: error -32601');
        expect(text, 'an extension method (its name starts with "_") is optional: not worth a word').to.not.contain('asked for _fake/hint');
        // Said once per chat: the same request in the next turn is not news.
        const again = await bed.chat.send('unsupported');
        await bed.chat.finished(again);
        expect(await bed.chat.text(again)).to.contain('x-future/ask: error -32601').and.not.contain('which this chat does not support');
    });

    it('switches the chat\'s mode and model from the command palette', async () => {
        const response = await bed.chat.send('echo first');
        await bed.chat.finished(response);
        const explain = async (error: Error) => { throw new Error(`${error.message}; ${await bed.window.describeForFailure('acp-set-mode')}`); };
        await bed.window.runCommand('Set Agent Mode').catch(explain);
        await bed.window.pickQuickItem('YOLO').catch(explain);
        await until(() => agentCalls().some(call => call.method === 'session/set_mode' && call.params.modeId === 'yolo'), 'session/set_mode yolo', 20000);
        await bed.window.runCommand('Set Agent Model').catch(explain);
        await bed.window.pickQuickItem('Fake Flash').catch(explain);
        await until(() => agentCalls().some(call => call.method === 'session/set_model' && call.params.modelId === 'fake-flash'), 'session/set_model fake-flash', 20000);
        // The backend logs a switch once the agent has answered it, after the agent recorded the request.
        await until(() => /mode yolo/.test(bed.backend.log) && /model fake-flash/.test(bed.backend.log), 'the backend to log both switches', 10000);
    });

    it('a turn that leaves a named pipe where a file was lists its other change and names the pipe "could not be read; not restorable"; the restore answers at once', async () => {
        const file = (name: string) => path.join(bed.workspace, name);
        fs.writeFileSync(file('pipe-me.txt'), 'pipe before\n');
        try {
            const response = await bed.chat.send('terminal rm pipe-me.txt && mkfifo pipe-me.txt && printf zeta-after > zeta.txt');
            await bed.chat.finished(response);
            expect(await bed.chat.text(response)).to.contain('Changed in this turn: pipe-me.txt (could not be read; not restorable), zeta.txt.');
            await response.locator('button', { hasText: 'Restore to Before This Turn' }).click();
            await until(() => !fs.existsSync(file('zeta.txt')), 'zeta.txt (added by the turn) to be removed by the restore', 20000);
            await until(async () => (await bed.window.notifications()).some(text => /Not restored: pipe-me\.txt \(it could not be read .*named pipe.*; not restorable\)/.test(text)),
                'the restore to name the pipe as not restored', 20000);
            expect(fs.lstatSync(file('pipe-me.txt')).isFIFO(), 'the pipe neither read nor written').to.equal(true);
        } finally {
            fs.rmSync(file('pipe-me.txt'), { force: true });
            fs.rmSync(file('zeta.txt'), { force: true });
        }
    });

    it('lists a turn\'s two edited files as a change set and restores them to before the turn, never overwriting the user\'s later edit unasked', async () => {
        const { page } = bed.window;
        const consoleLines: string[] = [];
        page.on('console', message => consoleLines.push(message.text()));
        const file = (name: string) => path.join(bed.workspace, name);
        const disk = (name: string) => fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : undefined;
        // The agent writes both files itself (as Claude Code and Codex do), not through the IDE.
        const response = await bed.chat.send(`selfwrite ${file('alpha.txt')}=alpha\\nafter ${file('beta.txt')}=beta\\nafter`);
        await bed.chat.finished(response);
        expect([disk('alpha.txt'), disk('beta.txt')]).to.deep.equal(['alpha\nafter', 'beta\nafter']);
        expect(await bed.chat.text(response)).to.contain('Changed in this turn: alpha.txt, beta.txt.');
        const changeSet = page.locator('#chat-view-widget .theia-ChatInput-ChangeSet-Box');
        await until(async () => (await changeSet.locator('.theia-ChatInput-ChangeSet-title').allInnerTexts()).sort().join() === 'alpha.txt,beta.txt',
            'the change set to list both files', 20000);

        // The turn's own change of a file, in a diff.
        await changeSet.locator('li', { hasText: 'alpha.txt' }).click();
        await page.locator('.lm-TabBar-tab', { hasText: 'alpha.txt (Fake: before ↔ after the turn)' }).first().waitFor({ state: 'visible', timeout: 20000 });

        // The user edits beta.txt afterwards (saved by Theia's default auto-save).
        await bed.window.openFile('beta.txt');
        await page.keyboard.press('Control+End');
        await page.keyboard.type('mine');
        await until(() => disk('beta.txt') === 'beta\naftermine', 'the user\'s edit to be saved', 20000);

        const restoreButton = response.locator('button', { hasText: 'Restore to Before This Turn' });
        const question = page.locator('.theia-notification-list-item', { hasText: 'Changed after the agent\'s turn' }).first();
        await restoreButton.click();
        await question.waitFor({ state: 'visible', timeout: 20000 });
        expect(await question.innerText()).to.contain('beta.txt').and.not.contain('alpha.txt');
        expect(disk('alpha.txt'), 'nothing written before the user answers').to.equal('alpha\nafter');
        await question.locator('button', { hasText: 'Restore Only the Others' }).click();
        await until(() => disk('alpha.txt') === 'alpha before\n', 'alpha.txt to be restored', 20000);
        expect(disk('beta.txt'), 'the user\'s edit kept').to.equal('beta\naftermine');

        await restoreButton.click();
        await question.waitFor({ state: 'visible', timeout: 20000 });
        await question.locator('button', { hasText: 'Overwrite Them' }).click();
        await until(() => disk('beta.txt') === 'beta before\n', 'beta.txt to be restored when the user says to overwrite', 20000);
        await until(async () => (await changeSet.locator('.theia-ChatInput-ChangeSet-title.pending').count()) === 2, 'both elements to show as restored', 20000)
            .catch(async error => {
                throw new Error(`${error.message}: ${await changeSet.innerHTML()}; ${await bed.window.notifications()} ${consoleLines.join('\n').slice(-3000)}`);
            });
        await bed.window.saveDocScreenshot('acp-turn-restored', page.locator('#chat-view-widget'));

        // Apply writes the turn's content again.
        // The actions show while the pointer is over the row; the restore's toasts show where the chat input is (bottom
        // right, above the session bar): cleared first, as a user would close them.
        await bed.window.runCommand('Clear All Notifications');
        await until(async () => (await bed.window.notifications()).length === 0, 'no toast over the change set', 10000);
        await changeSet.locator('li', { hasText: 'alpha.txt' }).hover();
        await changeSet.locator('li', { hasText: 'alpha.txt' }).locator('.codicon-check').click();
        await until(() => disk('alpha.txt') === 'alpha\nafter', 'alpha.txt to hold the turn\'s content again', 20000);
    });

    it('follows the agent when the chat\'s toggle is on: the file and line it edits are shown, the focus stays in the chat', async () => {
        const { page } = bed.window;
        const tab = (name: string) => page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: name });
        const focusInChat = () => page.evaluate(() => !!document.activeElement?.closest('#chat-view-widget'));
        const quiet = await bed.chat.send(`selfwrite ${path.join(bed.workspace, 'gamma.txt')}=one\\ntwo`);
        await bed.chat.finished(quiet);
        expect(await tab('gamma.txt').count(), 'not followed while the toggle is off').to.equal(0);
        const describeFocus = () => page.evaluate(() => {
            const active = document.activeElement;
            return `${active?.tagName}.${active?.className} in ${active?.closest('[id]')?.id}`;
        });
        expect(await focusInChat(), `the chat input has the focus after a turn: ${await describeFocus()}`).to.equal(true);

        const toggle = (icon: string) => page.locator(`.lm-TabBar-toolbar .item .codicon-${icon}, .theia-sidepanel-toolbar .item .codicon-${icon}`).first();
        await toggle('eye-closed').click();
        await toggle('eye').waitFor({ state: 'visible', timeout: 10000 });
        const followed = await bed.chat.send(`selfwrite ${path.join(bed.workspace, 'delta.txt')}=one\\ntwo\\nthree`);
        await bed.chat.finished(followed);
        await tab('delta.txt').first().waitFor({ state: 'visible', timeout: 20000 });
        expect(await focusInChat(), `the chat input keeps the focus: ${await describeFocus()}`).to.equal(true);
        // The editor shows the line the tool call is at (the third).
        await until(async () => (await page.locator('#theia-main-content-panel .monaco-editor .current-line').count()) > 0
            && (await page.locator('#theia-main-content-panel .monaco-editor .line-numbers.active-line-number').allInnerTexts()).includes('3'),
        'the editor to show line 3', 20000);
        await bed.window.runCommand('CLI Companion: Follow the Agent');
        await toggle('eye-closed').waitFor({ state: 'visible', timeout: 10000 });
    });

    it('delivers a message to the agent it names: @Other in a chat with Fake goes to Other, says so, and @Fake resumes Fake\'s session', async () => {
        const prompts = (log: string) => fs.existsSync(log)
            ? fs.readFileSync(log, 'utf8').trim().split('\n').map(line => JSON.parse(line)).filter(call => call.method === 'session/prompt')
                .map(call => call.params.prompt.at(-1).text as string)
            : [];
        const before = prompts(agentLog).length;
        const first = await bed.chat.send('echo to fake');
        await bed.chat.finished(first);
        const other = await bed.chat.send('@Other echo to other', true);
        await bed.chat.finished(other);
        expect(await bed.chat.text(other)).to.contain('This chat now talks to Other, in a session of its own; Fake keeps its session').and.contain('echo to other');
        const back = await bed.chat.send('@Fake echo back to fake', true);
        await bed.chat.finished(back);
        expect(await bed.chat.text(back)).to.contain('This chat talks to Fake again: its earlier session in this chat goes on').and.contain('echo back to fake');
        expect(prompts(otherLog)).to.deep.equal(['echo to other']);
        expect(prompts(agentLog).slice(before)).to.deep.equal(['echo to fake', 'echo back to fake']);
        const [, chatId] = [...bed.backend.log.matchAll(/Chat (\S+): Other session \S+ started/g)].at(-1)!;
        expect(bed.backend.log.split(`Chat ${chatId}: Fake session `).length - 1, 'Fake\'s session of the chat was started once, then resumed').to.equal(1);
        expect(bed.backend.log).to.contain(`Chat ${chatId}: now talks to Fake (was Other), its earlier session resumed`);
    });

    it('an agent that is not installed answers with its install command', async () => {
        const response = await bed.chat.send('@Missing hello', true);
        await bed.chat.finished(response);
        const error = await response.locator('.theia-ChatPart-Error-message').innerText();
        expect(error).to.contain('Missing is not installed ("no-such-acp-agent" was not found). Install it with: npm install -g no-such-acp-agent');
    });

    it('reopens a chat after a page reload with an agent that cannot resume: its session is loaded, and what the agent replays is not shown again', async () => {
        await bed.chat.finished(await bed.chat.send('@Loader echo before the reload', true));
        const [, chatId, sessionId] = [...bed.backend.log.matchAll(/Chat (\S+): Loader session (\S+) started/g)].at(-1)!;
        const stored = (dir: string): boolean => fs.readdirSync(dir, { withFileTypes: true })
            .some(entry => entry.name.includes(chatId) || (entry.isDirectory() && stored(path.join(dir, entry.name))));
        await until(() => stored(bed.sandbox.root), 'the chat to be stored', 20000);
        const { page } = bed.window;
        await page.reload();
        await waitForWorkbench(page);
        await bed.window.runCommand('Browse all chats');
        const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'echo before the reload' }).first();
        await row.waitFor({ state: 'visible', timeout: 20000 });
        await row.click();
        await page.locator('#chat-view-widget .theia-ResponseNode', { hasText: 'echo before the reload' }).first().waitFor({ state: 'visible', timeout: 20000 });
        const callsBefore = agentCalls(loaderLog).length;

        const next = await bed.chat.send('@Loader echo after the reload', true);
        await bed.chat.finished(next);
        const calls = agentCalls(loaderLog).slice(callsBefore);
        expect(calls.filter(call => call.method === 'session/load').map(call => call.params.sessionId)).to.deep.equal([sessionId]);
        expect(calls.some(call => call.method === 'session/resume'), 'the agent offers no session/resume').to.equal(false);
        // The agent replayed "earlier question" and "earlier answer" while it loaded the session: the chat has its own history.
        const text = await bed.chat.text(next);
        expect(text).to.contain('echo after the reload').and.not.contain('earlier answer').and.not.contain('earlier question');
    });

    // Last: it restarts the backend.
    it('reopens a chat after a page reload and after a backend restart: the agent loads the same session, and the turn can still be restored', async () => {
        const epsilon = path.join(bed.workspace, 'epsilon.txt');
        const first = await bed.chat.send(`selfwrite ${epsilon}=written\\nby-agent`);
        await bed.chat.finished(first);
        const [, chatId, sessionId] = [...bed.backend.log.matchAll(/Chat (\S+): Fake session (\S+) started/g)].at(-1)!;
        // Theia keeps the chat (debounced) in the sandbox's configuration or workspace storage.
        const stored = (dir: string): boolean => fs.readdirSync(dir, { withFileTypes: true })
            .some(entry => entry.name.includes(chatId) || (entry.isDirectory() && stored(path.join(dir, entry.name))));
        await until(() => stored(bed.sandbox.root), 'the chat to be stored', 20000);

        const reopen = async (when: string) => {
            const { page } = bed.window;
            const callsBefore = agentCalls().length;
            await waitForWorkbench(page);
            await bed.window.runCommand('Browse all chats');
            // This chat, by its title (its first message): an earlier test's chat may have been stored after it.
            const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'selfwrite' }).first();
            await row.waitFor({ state: 'visible', timeout: 20000 });
            await row.click();
            await page.locator('#chat-view-widget .theia-ResponseNode', { hasText: 'Changed in this turn: epsilon.txt' }).first()
                .waitFor({ state: 'visible', timeout: 20000 });
            const next = await bed.chat.send(`echo after the ${when}`);
            await bed.chat.finished(next);
            expect(await bed.chat.text(next)).to.contain(`echo after the ${when}`).and.not.contain('could not reopen');
            // The agent offers session/resume: the chat has its own history, nothing is replayed.
            await until(() => bed.backend.log.includes(`Chat ${chatId}: Fake session ${sessionId} resumed`), `session ${sessionId} resumed after the ${when}`, 20000);
            expect(agentCalls().slice(callsBefore).some(call => call.method === 'session/resume' && call.params.sessionId === sessionId), 'session/resume sent').to.equal(true);
            expect(await bed.chat.text(next), 'nothing of an earlier turn in the new answer').to.not.contain('earlier answer');
        };
        await bed.window.page.reload();
        await reopen('reload');

        await bed.backend.stop();
        bed.backend = new TheiaBackend(bed.sandbox, bed.workspace);
        await bed.backend.start();
        bed.chat = new AcpChat(bed.window, bed.backend);
        await bed.window.page.goto(bed.backend.url);
        await reopen('backend restart');

        // The checkpoint outlived the backend: the turn's write is undone.
        await bed.window.page.locator('#chat-view-widget button', { hasText: 'Restore to Before This Turn' }).first().click();
        await until(() => fs.readFileSync(epsilon, 'utf8') === 'epsilon before\n', 'epsilon.txt restored after the restart', 20000);
    });
});
