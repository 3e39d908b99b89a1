import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TaskTranscript, toolCallOf } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { AgentTaskManager } from './agent-task-manager';
import { createAgentTaskBackend, runTask, writeFakeGemini } from './test/agent-task-testbed';

/** Names an agent (tool ids) or a repository (file names) may choose that name what every plain object inherits. */
const INHERITED_NAMES = ['__proto__', 'constructor', 'toString'];

function expectToolCalls(transcript: TaskTranscript): void {
    expect(transcript.entries.filter(entry => entry.kind === 'tool')).to.deep.equal(INHERITED_NAMES.map(toolId => ({ kind: 'tool', toolId })));
    for (const id of INHERITED_NAMES) {
        expect(toolCallOf(transcript, id), id).to.deep.include({ toolId: id, name: `tool ${id}`, status: 'success', output: `output of ${id}` });
    }
}

describe('AgentTaskManager: names chosen by the agent or the repository', function (): void {
    this.timeout(20_000);
    let base: string;
    let ws: string;
    let manager: AgentTaskManager;
    let prototypeBefore: PropertyDescriptorMap;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-task-manager-spec-')));
        ws = path.join(base, 'ws');
        fs.mkdirSync(ws);
        manager = createAgentTaskBackend(path.join(base, 'config')).manager;
        prototypeBefore = Object.getOwnPropertyDescriptors(Object.prototype);
    });

    afterEach(() => {
        manager.onStop();
        fs.rmSync(base, { recursive: true, force: true });
        expect(({} as { polluted?: unknown }).polluted, 'Object.prototype polluted').to.equal(undefined);
        expect(Object.getOwnPropertyDescriptors(Object.prototype)).to.deep.equal(prototypeBefore);
    });

    it('keeps tool calls whose ids are __proto__, constructor and toString, in the task and after a restart', async () => {
        const cli = writeFakeGemini(path.join(base, 'fake-gemini'), {
            lines: [
                ...INHERITED_NAMES.map(id => JSON.stringify({ type: 'tool_use', timestamp: 't', tool_name: `tool ${id}`, tool_id: id, parameters: { polluted: true } })),
                ...INHERITED_NAMES.map(id => JSON.stringify({ type: 'tool_result', timestamp: 't', tool_id: id, status: 'success', output: `output of ${id}` }))
            ]
        });
        const detail = await runTask(manager, () => manager.start({ prompt: 'look around', cwd: ws, approvalMode: 'default' }, cli));
        expect(detail.state).to.equal('succeeded');
        expectToolCalls(detail.transcript);
        // The backend restarted: the task comes back from its stored JSON.
        const restarted = createAgentTaskBackend(path.join(base, 'config')).manager;
        expectToolCalls((await restarted.get(detail.id))!.transcript);
    });

    it('runs the gemini found on PATH\'s absolute entries, never the repository\'s own, when PATH lists "." and an empty entry first', async () => {
        const marker = path.join(base, 'repository-gemini-ran');
        fs.writeFileSync(path.join(ws, 'gemini'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
        const installed = path.join(base, 'installed');
        fs.mkdirSync(installed);
        writeFakeGemini(path.join(installed, 'gemini'), {});
        const [cwd, pathVariable] = [process.cwd(), process.env.PATH];
        // As a backend started from inside the repository with a PATH of ".:…" has it.
        process.chdir(ws);
        process.env.PATH = ['.', '', installed, pathVariable].join(path.delimiter);
        try {
            const detail = await runTask(manager, () => manager.start({ prompt: 'hello', cwd: ws, approvalMode: 'default' }, 'gemini'));
            expect(fs.existsSync(marker), 'the repository\'s gemini ran').to.equal(false);
            expect(detail).to.deep.include({ state: 'succeeded', executable: path.join(installed, 'gemini') });
        } finally {
            process.chdir(cwd);
            process.env.PATH = pathVariable;
        }
    });

    it('keeps a bounded start of a 300 MiB stderr line without a break, and the task ends as usual', async () => {
        const cli = writeFakeGemini(path.join(base, 'fake-gemini'), { shell: "head -c 314572800 /dev/zero | tr '\\0' e >&2\nprintf '\\nafter the flood\\n' >&2" });
        const start = process.memoryUsage().rss;
        let most = start;
        const timer = setInterval(() => most = Math.max(most, process.memoryUsage().rss), 10);
        try {
            const detail = await runTask(manager, () => manager.start({ prompt: 'flood', cwd: ws, approvalMode: 'default' }, cli));
            expect(detail.state).to.equal('succeeded');
        } finally {
            clearInterval(timer);
        }
        expect(most - start, `RSS grew by ${Math.round((most - start) / 1024 / 1024)} MiB`).to.be.below(150 * 1024 * 1024);
    });

    it('reads a task stored by an earlier version, whose tool calls were an object keyed by tool id', async () => {
        const tasks = path.join(base, 'config', 'cli-companion', 'agent-tasks', 'tasks');
        fs.mkdirSync(tasks, { recursive: true });
        const id = '6f1c3c2e-0000-4000-8000-000000000001';
        const ids = ['read_file_1', 'write_file_2'];
        fs.writeFileSync(path.join(tasks, `${id}.json`), JSON.stringify({
            id, request: { prompt: 'hi', cwd: ws, approvalMode: 'default' }, startedAt: 1, state: 'succeeded', changes: { state: 'ready', files: [], truncated: false },
            transcript: {
                entries: ids.map(toolId => ({ kind: 'tool', toolId })),
                toolCalls: Object.fromEntries(ids.map(toolId => [toolId, { toolId, name: 'tool', status: 'success' }])),
                counts: { events: 4, unknownEvents: 0, invalidEvents: 0, notJson: 0 }
            }
        }));
        const transcript = (await manager.get(id))!.transcript;
        expect(transcript.toolCalls.map(call => call.toolId)).to.deep.equal(ids);
        expect(toolCallOf(transcript, 'write_file_2')).to.deep.equal({ toolId: 'write_file_2', name: 'tool', status: 'success' });
    });

    it('lists and reverts changes to files named __proto__, constructor and toString', async () => {
        for (const name of INHERITED_NAMES) {
            fs.writeFileSync(path.join(ws, name), `${name} before\n`);
        }
        const cli = writeFakeGemini(path.join(base, 'fake-gemini'), {
            shell: "printf 'after\\n' > __proto__\nprintf 'after\\n' > constructor\nrm toString\nprintf 'new\\n' > valueOf"
        });
        const detail = await runTask(manager, () => manager.start({ prompt: 'edit', cwd: ws, approvalMode: 'auto_edit' }, cli));
        const changes = detail.changes.state === 'ready' ? detail.changes.files : [];
        expect(changes.map(change => [change.relativePath, change.kind])).to.deep.equal([
            ['__proto__', 'modified'], ['constructor', 'modified'], ['toString', 'deleted'], ['valueOf', 'added']
        ]);
        expect(await manager.baseline(detail.id, path.join(ws, 'toString'))).to.equal('toString before\n');
        for (const change of changes) {
            expect(await manager.revert(detail.id, change.path, false), change.relativePath).to.deep.equal({ kind: 'reverted' });
        }
        expect(fs.readdirSync(ws).sort()).to.deep.equal(INHERITED_NAMES);
        for (const name of INHERITED_NAMES) {
            expect(fs.readFileSync(path.join(ws, name), 'utf8')).to.equal(`${name} before\n`);
        }
    });
});

describe('AgentTaskManager: what it keeps of the task\'s folder', function (): void {
    this.timeout(20_000);
    let base: string;
    let manager: AgentTaskManager;
    let umask: number;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-task-manager-spec-')));
        manager = createAgentTaskBackend(path.join(base, 'config')).manager;
        // The most permissive umask: the modes must not depend on it.
        umask = process.umask(0);
    });

    afterEach(() => {
        process.umask(umask);
        manager.onStop();
        fs.rmSync(base, { recursive: true, force: true });
    });

    it('stores the content of a .env file, and everything else (git\'s snapshots too), in 0600 files inside 0700 directories', async () => {
        const ws = path.join(base, 'ws');
        fs.mkdirSync(ws);
        fs.writeFileSync(path.join(ws, '.env'), 'API_KEY=secret\n');
        const cli = writeFakeGemini(path.join(base, 'fake-gemini'), { shell: "printf 'API_KEY=rotated\\n' > .env" });
        const detail = await runTask(manager, () => manager.start({ prompt: 'rotate the key', cwd: ws, approvalMode: 'auto_edit' }, cli));
        const [change] = detail.changes.state === 'ready' ? detail.changes.files : [];
        expect(change).to.deep.include({ relativePath: '.env', kind: 'modified' });
        const store = path.join(base, 'config', 'cli-companion', 'agent-tasks');
        const blobs = path.join(store, 'blobs');
        expect(fs.readFileSync(path.join(blobs, change.before!), 'utf8')).to.equal('API_KEY=secret\n');
        expect(fs.readFileSync(path.join(blobs, change.after!), 'utf8')).to.equal('API_KEY=rotated\n');
        const modes = (dir: string): [string, number][] => [[dir, fs.statSync(dir).mode & 0o777],
            ...fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => entry.isDirectory()
                ? modes(path.join(dir, entry.name)) : [[path.join(dir, entry.name), fs.statSync(path.join(dir, entry.name)).mode & 0o777] as [string, number]])];
        const all = modes(store);
        expect(all.filter(([file]) => file.startsWith(blobs + path.sep))).to.have.length.of.at.least(2);
        // Git keeps its objects read-only (0400): no more open than 0600 either.
        const tooOpen = ([file, mode]: [string, number]) => fs.statSync(file).isDirectory() ? mode !== 0o700 : (mode !== 0o600 && mode !== 0o400);
        expect(all.filter(tooOpen)).to.deep.equal([]);
        expect(all.filter(([file]) => file.startsWith(path.join(store, 'git') + path.sep)), 'the snapshot was taken by git').to.have.length.of.at.least(5);
    });
});
