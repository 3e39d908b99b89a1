import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { StreamJsonLine } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { AgentTaskClient, AgentTaskSummary } from '../common/agent-task-protocol';
import { AgentTaskBackendImpl } from './agent-task-backend-impl';
import { AgentTaskManager } from './agent-task-manager';
import { createAgentTaskBackend, runTask, writeFakeGemini } from './test/agent-task-testbed';

/** What one window's connection was told. */
class RecordingClient implements AgentTaskClient {
    readonly lines: { id: string; line: StreamJsonLine }[] = [];
    readonly changed: AgentTaskSummary[] = [];
    readonly removed: string[] = [];
    onTaskLine(id: string, _seq: number, line: StreamJsonLine): void {
        this.lines.push({ id, line });
    }
    onTaskChanged(summary: AgentTaskSummary): void {
        this.changed.push(summary);
    }
    onTaskRemoved(id: string): void {
        this.removed.push(id);
    }
}

describe('AgentTaskBackendImpl: a window sees and acts on the tasks of its own workspace only', function (): void {
    this.timeout(20_000);
    let base: string;
    let mine: string;
    let theirs: string;
    let cli: string;
    let manager: AgentTaskManager;
    let myWindow: AgentTaskBackendImpl;
    let otherWindow: AgentTaskBackendImpl;
    let myClient: RecordingClient;
    let otherClient: RecordingClient;

    beforeEach(async () => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-task-windows-spec-')));
        mine = path.join(base, 'mine');
        theirs = path.join(base, 'theirs');
        fs.mkdirSync(mine);
        fs.mkdirSync(theirs);
        fs.writeFileSync(path.join(mine, 'notes.md'), 'before\n');
        // The other window's root holds a link into this one's: the task's folder is not inside it for that.
        fs.symlinkSync(mine, path.join(theirs, 'link-to-mine'));
        fs.symlinkSync(mine, path.join(base, 'mine-by-link'));
        cli = writeFakeGemini(path.join(base, 'fake-gemini'), {
            shell: "printf 'after\\n' > notes.md",
            lines: [JSON.stringify({ type: 'message', timestamp: 't', role: 'assistant', content: 'Edited the notes.' })]
        });
        const graph = createAgentTaskBackend(path.join(base, 'config'));
        manager = graph.manager;
        myWindow = graph.backend();
        otherWindow = graph.backend();
        myWindow.setClient(myClient = new RecordingClient());
        otherWindow.setClient(otherClient = new RecordingClient());
        // This window names its root through a link: roots and folders are compared as realpaths.
        await myWindow.setWorkspaceRoots([path.join(base, 'mine-by-link')]);
        await otherWindow.setWorkspaceRoots([theirs]);
    });

    afterEach(() => {
        myWindow.dispose();
        otherWindow.dispose();
        manager.onStop();
        fs.rmSync(base, { recursive: true, force: true });
    });

    it('tells only the window whose root holds the task, and refuses the task to the other', async () => {
        const detail = await runTask(manager, () => myWindow.start({ prompt: 'edit the notes', cwd: mine, approvalMode: 'auto_edit', command: cli }));
        const notes = path.join(mine, 'notes.md');
        expect(detail.state).to.equal('succeeded');
        expect(myClient.changed.map(summary => summary.id)).to.include(detail.id);
        expect(myClient.lines.map(each => each.id)).to.include(detail.id);
        expect(otherClient.changed).to.deep.equal([]);
        expect(otherClient.lines).to.deep.equal([]);

        expect((await myWindow.list()).map(task => task.id)).to.deep.equal([detail.id]);
        expect(await otherWindow.list()).to.deep.equal([]);
        expect((await myWindow.get(detail.id))?.id).to.equal(detail.id);
        expect(await otherWindow.get(detail.id)).to.equal(undefined);
        const refused = (call: Promise<unknown>) => call.then(() => expect.fail('not refused'), error => expect(String(error)).to.contain('in this window\'s workspace'));
        await refused(otherWindow.revert(detail.id, notes, true));
        await refused(otherWindow.baseline(detail.id, notes));
        await refused(otherWindow.cancel(detail.id));
        await refused(otherWindow.remove(detail.id));
        await refused(otherWindow.keep(detail.id, notes));
        expect(fs.readFileSync(notes, 'utf8'), 'the other window reverted nothing').to.equal('after\n');
        expect(await manager.get(detail.id), 'the other window removed nothing').not.to.equal(undefined);

        expect(await myWindow.baseline(detail.id, notes)).to.equal('before\n');
        expect(await myWindow.revert(detail.id, notes, false)).to.deep.equal({ kind: 'reverted' });
        await myWindow.remove(detail.id);
        expect(myClient.removed).to.deep.equal([detail.id]);
        expect(otherClient.removed).to.deep.equal([]);
        expect(otherClient.changed).to.deep.equal([]);
    });

    it('refuses to start a task outside the window\'s roots, and follows the roots it is told', async () => {
        await otherWindow.start({ prompt: 'edit the notes', cwd: path.join(theirs, 'link-to-mine'), approvalMode: 'auto_edit', command: cli }).then(
            () => expect.fail('started'), error => expect(String(error)).to.contain('not inside this window\'s workspace'));
        const detail = await runTask(manager, () => myWindow.start({ prompt: 'edit the notes', cwd: mine, approvalMode: 'auto_edit', command: cli }));
        await otherWindow.setWorkspaceRoots([theirs, mine]);
        expect((await otherWindow.list()).map(task => task.id)).to.deep.equal([detail.id]);
        await myWindow.setWorkspaceRoots([]);
        expect(await myWindow.list()).to.deep.equal([]);
        expect(await myWindow.get(detail.id)).to.equal(undefined);
    });

    it('records the ignored files the window names in its snapshots, and refuses patterns that could leave the folder', async () => {
        fs.writeFileSync(path.join(mine, '.gitignore'), '.env\n');
        fs.writeFileSync(path.join(mine, '.env'), 'KEY=1\n');
        // Each run adds a line: the second task changes the file too.
        const rotate = writeFakeGemini(path.join(base, 'fake-gemini-env'), { shell: "printf 'ROTATED=1\\n' >> .env" });
        const ignored = await runTask(manager, () => myWindow.start({ prompt: 'rotate', cwd: mine, approvalMode: 'auto_edit', command: rotate }));
        expect(ignored.changes.state === 'ready' && ignored.changes.files.map(change => change.relativePath), 'ignored by .gitignore').to.deep.equal([]);
        const included = await runTask(manager, () => myWindow.start({ prompt: 'rotate', cwd: mine, approvalMode: 'auto_edit', command: rotate, snapshotInclude: ['.env'] }));
        expect(included.changes.state === 'ready' && included.changes.files.map(change => change.relativePath), 'named in the setting').to.deep.equal(['.env']);
        await myWindow.start({ prompt: 'rotate', cwd: mine, approvalMode: 'auto_edit', command: rotate, snapshotInclude: ['../outside/**'] }).then(
            () => expect.fail('started'), error => expect(String(error)).to.contain('Invalid agent task').and.to.contain('must not leave the folder'));
    });
});
