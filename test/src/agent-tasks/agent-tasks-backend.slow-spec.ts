import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { EnvVariablesServerImpl } from '@theia/core/lib/node/env-variables';
import { AgentTaskDetail, AgentTaskSummary } from '@theia-cli-companion/ai-agent-tasks/lib/common';
import { AgentTaskManager } from '@theia-cli-companion/ai-agent-tasks/lib/node';
import { AgentWorkRegistry } from '@theia-cli-companion/ai-cli-core/lib/node';
import { StreamJsonLine, assistantText } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { MockGeminiApi } from '../mocks/mock-gemini-api';
import { prepareGeminiAcp } from '../clis/gemini-acp-setup';
import { Sandbox, createSandbox, createWorkspace } from '../support/sandbox';

/**
 * The agent task backend with the real `gemini` 0.61.0, offline against the mock Gemini API: the
 * manager runs in this process with the sandbox as its environment (HOME, PATH, THEIA_CONFIG_DIR).
 */
describe('agent tasks backend (real gemini -p --output-format stream-json)', function (): void {
    this.timeout(60_000);
    let sandbox: Sandbox;
    let api: MockGeminiApi;
    let savedEnv: NodeJS.ProcessEnv;
    let logged: string[];
    let turn: (contents: Parameters<ConstructorParameters<typeof MockGeminiApi>[0]>[0]) => ReturnType<ConstructorParameters<typeof MockGeminiApi>[0]>;

    beforeEach(async () => {
        turn = () => ({ text: 'Nothing to do.' });
        api = new MockGeminiApi(contents => turn(contents));
        sandbox = createSandbox();
        prepareGeminiAcp(sandbox, await api.start(), 'test-key');
        savedEnv = { ...process.env };
        // The manager runs the CLI with the backend's environment: make this process the sandboxed backend.
        for (const key of Object.keys(process.env)) {
            delete process.env[key];
        }
        Object.assign(process.env, sandbox.env);
        logged = [];
    });

    afterEach(async () => {
        for (const key of Object.keys(process.env)) {
            delete process.env[key];
        }
        Object.assign(process.env, savedEnv);
        await api.stop();
        sandbox.dispose();
    });

    function createManager(): AgentTaskManager {
        const container = new Container();
        const log = (message: string) => { logged.push(String(message)); };
        const logger = { debug: log, info: log, warn: log, error: log, log, isDebug: async () => false, child: () => logger } as unknown as ILogger;
        container.bind(ILogger).toConstantValue(logger);
        container.bind(EnvVariablesServer).toConstantValue(new EnvVariablesServerImpl());
        container.bind(AgentWorkRegistry).toSelf().inSingletonScope();
        container.bind(AgentTaskManager).toSelf().inSingletonScope();
        return container.get(AgentTaskManager);
    }

    async function runToEnd(manager: AgentTaskManager, start: () => Promise<AgentTaskSummary>,
        during?: (summary: AgentTaskSummary) => void): Promise<{ detail: AgentTaskDetail; lines: StreamJsonLine[]; summaries: AgentTaskSummary[] }> {
        const lines: StreamJsonLine[] = [];
        const summaries: AgentTaskSummary[] = [];
        let id: string | undefined;
        const ended = new Promise<void>(resolve => {
            manager.onChanged(summary => {
                summaries.push(summary);
                during?.(summary);
                if (summary.id === id && !['preparing', 'running'].includes(summary.state)) {
                    resolve();
                }
            });
        });
        manager.onLine(({ line }) => lines.push(line));
        id = (await start()).id;
        await ended;
        return { detail: (await manager.get(id))!, lines, summaries };
    }

    it('runs a task that edits a file: events, stats, the change against the snapshot, and its revert', async () => {
        const workspace = createWorkspace(sandbox, 'ws', { 'notes.md': '# Notes\nold line\n', 'src/keep.ts': 'export const keep = 1;\n' });
        fs.chmodSync(path.join(workspace, 'notes.md'), 0o640);
        turn = contents => MockGeminiApi.lastToolResult(contents)
            ? { text: 'I rewrote notes.md.' }
            : { functionCall: { name: 'write_file', args: { file_path: path.join(workspace, 'notes.md'), content: '# Notes\nnew line\n' } } };
        const manager = createManager();
        const { detail, lines, summaries } = await runToEnd(manager, () => manager.start({ prompt: 'Rewrite @notes.md', cwd: workspace, approvalMode: 'auto_edit' }, 'gemini'));

        expect(detail.state, detail.outcomeMessage).to.equal('succeeded');
        expect(summaries.map(summary => summary.state)).to.include.members(['preparing', 'running', 'succeeded']);
        expect(detail.executable).to.equal(path.join(sandbox.root, 'bin', 'gemini'));
        expect(lines.map(line => line.kind === 'event' ? line.event.type : line.kind)).to.deep.equal(['init', 'message', 'tool_use', 'tool_result', 'message', 'result']);
        const [call] = Object.values(detail.transcript.toolCalls);
        expect(call).to.deep.include({ name: 'write_file', status: 'success' });
        expect(assistantText(detail.transcript)).to.equal('I rewrote notes.md.');
        expect(detail.transcript.result?.stats).to.deep.include({ input_tokens: 22, output_tokens: 14, tool_calls: 1 });
        expect(detail.exit).to.deep.equal({ code: 0, signal: null });
        // The @-reference reached the model as the file's content.
        expect(JSON.stringify(api.requests[0].contents)).to.contain('old line');

        expect(detail.changes.state).to.equal('ready');
        const files = detail.changes.state === 'ready' ? detail.changes.files : [];
        expect(files.map(change => [change.relativePath, change.kind, change.reviewable])).to.deep.equal([['notes.md', 'modified', true]]);
        expect(await manager.baseline(detail.id, files[0].path)).to.equal('# Notes\nold line\n');

        // A later edit by the user is not overwritten without being asked.
        fs.writeFileSync(files[0].path, '# Notes\nthe user kept typing\n');
        expect(await manager.revert(detail.id, files[0].path, false)).to.deep.equal({ kind: 'changed-since' });
        expect(fs.readFileSync(files[0].path, 'utf8')).to.equal('# Notes\nthe user kept typing\n');
        expect(await manager.revert(detail.id, files[0].path, true)).to.deep.equal({ kind: 'reverted' });
        expect(fs.readFileSync(files[0].path, 'utf8')).to.equal('# Notes\nold line\n');
        expect(fs.statSync(files[0].path).mode & 0o777, 'the file\'s mode from before the task').to.equal(0o640);
        expect(fs.readdirSync(workspace).filter(name => name.startsWith('.')), 'no temporary file left').to.deep.equal([]);

        // Stored privately, listed for its workspace only, and listed again by a fresh backend.
        const stored = path.join(sandbox.theiaConfig, 'cli-companion', 'agent-tasks', 'tasks', `${detail.id}.json`);
        expect(fs.statSync(stored).mode & 0o777).to.equal(0o600);
        expect(fs.statSync(path.dirname(stored)).mode & 0o777).to.equal(0o700);
        expect((await manager.list([workspace])).map(task => task.id)).to.deep.equal([detail.id]);
        expect(await manager.list([path.join(sandbox.root, 'elsewhere')])).to.deep.equal([]);
        const reloaded = await createManager().get(detail.id);
        expect(reloaded?.state).to.equal('succeeded');
        expect(reloaded?.changes.state === 'ready' && reloaded.changes.files[0].revertedAt).to.be.a('number');
        expect(assistantText(reloaded!.transcript)).to.equal('I rewrote notes.md.');
        expect(logged.join('\n')).not.to.contain('test-key');
    });

    it('lists a created file for review; reverting deletes it, and removing the task forgets it', async () => {
        const workspace = createWorkspace(sandbox, 'ws', { 'a.txt': 'A\n' });
        turn = contents => MockGeminiApi.lastToolResult(contents)
            ? { text: 'Created.' }
            : { functionCall: { name: 'write_file', args: { file_path: path.join(workspace, 'docs', 'new.md'), content: 'brand new\n' } } };
        const manager = createManager();
        const { detail } = await runToEnd(manager, () => manager.start({ prompt: 'Create docs/new.md', cwd: workspace, approvalMode: 'yolo' }, 'gemini'));
        const files = detail.changes.state === 'ready' ? detail.changes.files : [];
        expect(files.map(change => [change.relativePath, change.kind])).to.deep.equal([['docs/new.md', 'added']]);
        expect(await manager.baseline(detail.id, files[0].path)).to.equal('');
        expect(await manager.revert(detail.id, files[0].path, false)).to.deep.equal({ kind: 'reverted' });
        expect(fs.existsSync(files[0].path)).to.equal(false);
        await manager.remove(detail.id);
        expect(await manager.get(detail.id)).to.equal(undefined);
        expect(await createManager().list([workspace])).to.deep.equal([]);
    });

    it('says what is wrong for the known exits: no auth (41), untrusted folder (55), not installed', async () => {
        const workspace = createWorkspace(sandbox, 'ws', { 'a.txt': 'A\n' });
        const settingsFile = path.join(sandbox.home, '.gemini', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        const manager = createManager();

        fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, security: { folderTrust: { enabled: false } } }));
        delete process.env.GEMINI_API_KEY;
        const noAuth = (await runToEnd(manager, () => manager.start({ prompt: 'hi', cwd: workspace, approvalMode: 'default' }, 'gemini'))).detail;
        expect(noAuth.state).to.equal('no-auth');
        expect(noAuth.exit?.code).to.equal(41);
        expect(noAuth.outcomeMessage).to.contain('GEMINI_API_KEY');

        process.env.GEMINI_API_KEY = 'test-key';
        fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, security: { ...settings.security, folderTrust: { enabled: true } } }));
        const untrusted = (await runToEnd(manager, () => manager.start({ prompt: 'hi', cwd: workspace, approvalMode: 'default' }, 'gemini'))).detail;
        expect(untrusted.state).to.equal('untrusted-folder');
        expect(untrusted.exit?.code).to.equal(55);
        // The offered way out works: the same task trusting the folder for this run.
        const trusted = (await runToEnd(manager, () => manager.start({ prompt: 'hi', cwd: workspace, approvalMode: 'default', skipTrust: true }, 'gemini'))).detail;
        expect(trusted.state, trusted.outcomeMessage).to.equal('succeeded');
        expect(assistantText(trusted.transcript)).to.equal('Nothing to do.');

        const missing = (await runToEnd(manager, () => manager.start({ prompt: 'hi', cwd: workspace, approvalMode: 'default' }, 'gemini-not-installed'))).detail;
        expect(missing.state).to.equal('not-installed');
        expect(missing.outcomeMessage).to.contain('npm install -g @google/gemini-cli');
    });

    it('reports network trouble while the CLI retries, and cancelling ends its whole process tree', async () => {
        const workspace = createWorkspace(sandbox, 'ws', { 'a.txt': 'A\n' });
        const settingsFile = path.join(sandbox.home, '.gemini', 'settings.json');
        const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
        fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, general: { disableAutoUpdate: true } }));
        // Nothing listens here: every request fails and the CLI retries with backoff for minutes.
        process.env.GOOGLE_GEMINI_BASE_URL = 'http://127.0.0.1:9';
        const manager = createManager();
        let pid: number | undefined;
        const { detail, summaries } = await runToEnd(manager, () => manager.start({ prompt: 'hi', cwd: workspace, approvalMode: 'default' }, 'gemini'), summary => {
            pid ??= summary.pid;
            if (summary.retry) {
                void manager.cancel(summary.id);
            }
        });
        const retry = summaries.find(summary => summary.retry)?.retry;
        expect(retry?.attempt).to.equal(1);
        expect(retry?.reason).to.contain('fetch failed');
        expect(detail.state).to.equal('cancelled');
        expect(detail.retry).to.equal(undefined);
        expect(pid).to.be.a('number');
        expect(() => process.kill(-pid!, 0), 'the process group is gone').to.throw(/ESRCH/);
        // stderr went to the log, never into the transcript.
        expect(logged.some(line => line.includes('stderr: Attempt 1 failed'))).to.equal(true);
        expect(detail.transcript.counts.notJson).to.equal(0);
    });

    it('after a backend crash lists a task that was running as ended, and skips a damaged task file without deleting it', async () => {
        const workspace = createWorkspace(sandbox, 'ws', { 'a.txt': 'A\n' });
        const tasks = path.join(sandbox.theiaConfig, 'cli-companion', 'agent-tasks', 'tasks');
        fs.mkdirSync(tasks, { recursive: true });
        const id = '6f1c3c2e-0000-4000-8000-000000000001';
        fs.writeFileSync(path.join(tasks, `${id}.json`), JSON.stringify({
            id, request: { prompt: 'hi', cwd: workspace, approvalMode: 'default' }, startedAt: 1, state: 'running', changes: { state: 'pending' },
            transcript: { entries: [], toolCalls: {}, counts: { events: 0, unknownEvents: 0, invalidEvents: 0, notJson: 0 } }
        }));
        fs.writeFileSync(path.join(tasks, 'broken.json'), '{"id": ');
        const [task] = await createManager().list([workspace]);
        expect(task).to.deep.include({ id, state: 'crashed', outcomeMessage: 'The IDE\'s backend stopped while this task ran.' });
        expect(JSON.parse(fs.readFileSync(path.join(tasks, `${id}.json`), 'utf8')).state, 'stored as ended').to.equal('crashed');
        expect(fs.existsSync(path.join(tasks, 'broken.json'))).to.equal(true);
        expect(logged.some(line => line.startsWith('Skipping agent task file broken.json'))).to.equal(true);
    });

    it('refuses a task for a folder that does not exist', async () => {
        const manager = createManager();
        await manager.start({ prompt: 'hi', cwd: path.join(sandbox.root, 'missing'), approvalMode: 'default' }, 'gemini').then(
            () => expect.fail('started'), error => expect(String(error)).to.contain('does not exist'));
    });
});
