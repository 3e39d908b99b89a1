import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createAgentTaskBackend, runTask, writeFakeGemini } from './test/agent-task-testbed';

/** A task counts as an agent working from its start to its end: the backend keeps the workspace awake meanwhile. */
describe('AgentTaskManager: a task is agent work while it runs, and only then', function (): void {
    this.timeout(20_000);
    let base: string;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-task-work-spec-')));
        fs.mkdirSync(path.join(base, 'my-app'));
    });
    afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

    it('registers the task, named by its folder (never its prompt), until it ends; also when it does not run at all', async () => {
        const { manager, work } = createAgentTaskBackend(path.join(base, 'config'));
        const release = path.join(base, 'release');
        // The "CLI" waits for the test before it answers, so the task is seen running.
        const cli = writeFakeGemini(path.join(base, 'fake-gemini'), { shell: `while [ ! -e '${release}' ]; do sleep 0.05; done` });
        const seen: string[][] = [];
        const listener = work.onDidChange(() => seen.push(work.current()));
        const done = runTask(manager, () => manager.start({ prompt: 'my secret plan', cwd: path.join(base, 'my-app'), approvalMode: 'default' }, cli));
        while (!work.current().length) {
            await new Promise(resolve => setTimeout(resolve, 10));
        }
        expect(work.current()).to.deep.equal(['an agent task in my-app']);
        const [task] = await manager.list([path.join(base, 'my-app')]);
        expect(task.state, 'the task still runs: the CLI waits for the test').to.be.oneOf(['preparing', 'running']);
        fs.writeFileSync(release, '');
        expect((await done).state).to.equal('succeeded');
        expect(work.current()).to.deep.equal([]);

        const missing = await runTask(manager, () => manager.start({ prompt: 'p', cwd: path.join(base, 'my-app'), approvalMode: 'default' }, path.join(base, 'no-such-gemini')));
        expect(missing.state).to.equal('not-installed');
        expect(work.current()).to.deep.equal([]);
        listener.dispose();
        manager.onStop();
        expect(seen.flat().join(' ')).not.to.contain('secret');
    });
});
