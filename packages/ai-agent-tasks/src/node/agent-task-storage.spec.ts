import { expect } from 'chai';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AgentTaskManager } from './agent-task-manager';
import { createAgentTaskBackend, runTask, writeFakeGemini } from './test/agent-task-testbed';

const sha = (content: Buffer) => crypto.createHash('sha256').update(content).digest('hex');

/** A removed task's contents leave the store: its blobs, and its snapshots' objects in the private git store. */
describe('AgentTaskManager: storage after a task is removed', function (): void {
    this.timeout(30_000);
    let base: string;
    let ws: string;
    let manager: AgentTaskManager;
    const store = () => path.join(base, 'config', 'cli-companion', 'agent-tasks');
    const blobs = () => fs.readdirSync(path.join(store(), 'blobs')).filter(name => /^[0-9a-f]{64}$/.test(name)).sort();
    const gitObjects = () => fs.readdirSync(path.join(store(), 'git'), { recursive: true, withFileTypes: true })
        .filter(entry => entry.isFile() && /[/\\]objects[/\\][0-9a-f]{2}$/.test(entry.parentPath ?? entry.path)).length;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-task-storage-spec-')));
        ws = path.join(base, 'ws');
        fs.mkdirSync(ws);
        manager = createAgentTaskBackend(path.join(base, 'config')).manager;
    });

    afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

    /** A task that puts `content` into data.bin. */
    async function task(name: string, content: Buffer) {
        fs.writeFileSync(path.join(base, `${name}.bin`), content);
        const cli = writeFakeGemini(path.join(base, `gemini-${name}`), { shell: `cp "${path.join(base, `${name}.bin`)}" data.bin` });
        return runTask(manager, () => manager.start({ prompt: name, cwd: ws, approvalMode: 'auto_edit' }, cli));
    }

    it('removes what only the removed task needed (blobs and git objects), and the remaining task still reverts byte for byte', async () => {
        const initial = crypto.randomBytes(64 * 1024);
        fs.writeFileSync(path.join(ws, 'data.bin'), initial);
        const first = crypto.randomBytes(64 * 1024);
        const second = crypto.randomBytes(64 * 1024);
        const one = await task('one', first);
        const two = await task('two', second);
        expect(blobs()).to.deep.equal([initial, first, second].map(sha).sort());
        const objectsBefore = gitObjects();

        await manager.remove(one.id);
        expect(blobs(), 'the first task\'s "before" went; what the second one needs stayed').to.deep.equal([first, second].map(sha).sort());
        expect(gitObjects(), 'the private git store keeps only what the next snapshot starts from').to.be.lessThan(objectsBefore);

        const change = two.changes.state === 'ready' ? two.changes.files[0] : undefined;
        expect(await manager.revert(two.id, change!.path, false)).to.deep.equal({ kind: 'reverted' });
        expect(fs.readFileSync(path.join(ws, 'data.bin')).equals(first)).to.equal(true);
        // Snapshots go on from the pruned store.
        const three = await task('three', second);
        expect(three.changes.state === 'ready' && three.changes.files.map(file => file.relativePath)).to.deep.equal(['data.bin']);

        const usage = await manager.storageUsage();
        expect(usage).to.deep.include({ id: 'agent-tasks', path: store() });
        expect(usage.parts.map(part => part.name)).to.deep.equal(['blobs', 'records', 'git']);
        expect(usage.parts[0].bytes, 'the two contents the kept tasks need').to.equal(2 * 64 * 1024);
    });
});
