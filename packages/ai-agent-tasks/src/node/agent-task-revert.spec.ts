import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { expectStillServing, HostileFiles, within } from '@theia-cli-companion/safe-files/lib/node/test';
import { AgentTaskDetail, FileChange } from '../common/agent-task-protocol';
import { AgentTaskManager } from './agent-task-manager';
import { AgentWorkRegistry } from '@theia-cli-companion/ai-cli-core/lib/node';

/**
 * Reverting a task's change writes only inside the task's folder: a folder on the way swapped for a
 * symbolic link after the task (by another task, a checkout of an untrusted repository) is refused,
 * and nothing is written or removed outside. The "CLI" is a shell script that edits two files.
 */
describe('AgentTaskManager.revert and keep', function (): void {
    this.timeout(20_000);
    let base: string;
    let ws: string;
    let outside: string;
    let manager: AgentTaskManager;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-task-revert-spec-')));
        ws = path.join(base, 'ws');
        outside = path.join(base, 'outside');
        fs.mkdirSync(path.join(ws, 'docs'), { recursive: true });
        fs.mkdirSync(outside);
        fs.mkdirSync(path.join(base, 'config'));
        fs.writeFileSync(path.join(ws, 'docs', 'notes.md'), 'before\n');
        const cli = path.join(base, 'fake-gemini');
        fs.writeFileSync(cli, '#!/bin/sh\nprintf \'after\\n\' > docs/notes.md\nprintf \'added\\n\' > docs/added.md\n', { mode: 0o755 });
        const log = () => undefined;
        const logger = { debug: log, info: log, warn: log, error: log, log, isDebug: async () => false, child: () => logger } as unknown as ILogger;
        const container = new Container();
        container.bind(ILogger).toConstantValue(logger);
        container.bind(EnvVariablesServer).toConstantValue({ getConfigDirUri: async () => FileUri.create(path.join(base, 'config')).toString() } as EnvVariablesServer);
        container.bind(AgentWorkRegistry).toSelf().inSingletonScope();
        container.bind(AgentTaskManager).toSelf().inSingletonScope();
        manager = container.get(AgentTaskManager);
    });

    afterEach(() => {
        fs.rmSync(base, { recursive: true, force: true });
    });

    async function runTask(): Promise<{ detail: AgentTaskDetail; notes: FileChange; added: FileChange }> {
        let id: string | undefined;
        const ended = new Promise<void>(resolve => manager.onChanged(summary => {
            if (summary.id === id && summary.changes.state !== 'pending') {
                resolve();
            }
        }));
        id = (await manager.start({ prompt: 'edit the notes', cwd: ws, approvalMode: 'auto_edit' }, path.join(base, 'fake-gemini'))).id;
        await ended;
        const detail = (await manager.get(id))!;
        const files = detail.changes.state === 'ready' ? detail.changes.files : [];
        const byName = (name: string) => files.find(change => change.relativePath === `docs/${name}`)!;
        expect(files.map(change => [change.relativePath, change.kind]).sort()).to.deep.equal([['docs/added.md', 'added'], ['docs/notes.md', 'modified']]);
        return { detail, notes: byName('notes.md'), added: byName('added.md') };
    }

    it('refuses to write or remove through a parent folder swapped for a link to outside, even when forced', async () => {
        const { detail, notes, added } = await runTask();
        fs.renameSync(path.join(ws, 'docs'), path.join(base, 'docs-moved-away'));
        fs.symlinkSync(outside, path.join(ws, 'docs'));
        fs.writeFileSync(path.join(outside, 'added.md'), 'added\n');

        const refused = await manager.revert(detail.id, notes.path, true);
        expect(refused.kind).to.equal('not-reviewable');
        expect(refused.kind === 'not-reviewable' && refused.reason).to.match(/^it no longer lies inside the task's folder \(.*is outside the workspace folders/);
        expect(fs.existsSync(path.join(outside, 'notes.md')), 'nothing written outside').to.equal(false);
        expect((await manager.revert(detail.id, added.path, true)).kind).to.equal('not-reviewable');
        expect(fs.readFileSync(path.join(outside, 'added.md'), 'utf8'), 'nothing removed outside').to.equal('added\n');
        expect(fs.readdirSync(outside)).to.deep.equal(['added.md']);
    });

    it('refuses a parent folder swapped for a dangling link, creating nothing where it points', async () => {
        const { detail, notes } = await runTask();
        fs.rmSync(path.join(ws, 'docs'), { recursive: true });
        fs.symlinkSync('../outside/not-yet', path.join(ws, 'docs'));
        expect((await manager.revert(detail.id, notes.path, true)).kind).to.equal('not-reviewable');
        expect(fs.existsSync(path.join(outside, 'not-yet')), 'nothing created outside').to.equal(false);
    });

    it('reverts inside the folder as before: the content put back, the added file removed', async () => {
        const { detail, notes, added } = await runTask();
        expect(await manager.revert(detail.id, notes.path, false)).to.deep.equal({ kind: 'reverted' });
        expect(fs.readFileSync(notes.path, 'utf8')).to.equal('before\n');
        expect(await manager.revert(detail.id, added.path, false)).to.deep.equal({ kind: 'reverted' });
        expect(fs.existsSync(added.path)).to.equal(false);
        expect(fs.readdirSync(path.join(ws, 'docs'))).to.deep.equal(['notes.md']);
    });

    it('a revert over a named pipe says "changed since" within a second; a file the task left as a pipe is listed as changed and not restorable', async () => {
        const hostile = new HostileFiles();
        try {
            const { detail, notes } = await runTask();
            hostile.pipe(notes.path);
            const reverts = Promise.all([1, 2, 3, 4, 5].map(() => manager.revert(detail.id, notes.path, false)));
            expect(await within(1000, 'five reverts over a named pipe', reverts)).to.deep.equal(Array(5).fill({ kind: 'changed-since' }));
            await expectStillServing(path.join(base, 'fake-gemini'));

            // A task whose CLI leaves a pipe where a file was: its other change is listed, and the pipe as not restorable.
            fs.rmSync(notes.path);
            fs.writeFileSync(notes.path, 'before\n');
            fs.writeFileSync(path.join(base, 'fake-gemini'), '#!/bin/sh\nrm docs/notes.md && mkfifo docs/notes.md\nprintf \'other\\n\' > docs/other.md\n', { mode: 0o755 });
            let id: string | undefined;
            const ended = new Promise<void>(resolve => manager.onChanged(summary => summary.id === id && summary.changes.state !== 'pending' && resolve()));
            id = (await manager.start({ prompt: 'pipe it', cwd: ws, approvalMode: 'auto_edit' }, path.join(base, 'fake-gemini'))).id;
            await within(10_000, 'the task with a pipe', ended);
            const task = (await manager.get(id))!;
            const files = task.changes.state === 'ready' ? task.changes.files : [];
            expect(files.map(change => [change.relativePath, change.kind, change.reviewable, change.unreadable]).sort()).to.deep.equal([
                ['docs/notes.md', 'modified', false, 'it is now a named pipe, which is never read'], ['docs/other.md', 'added', true, undefined]
            ]);
            expect(await within(1000, 'a revert of the pipe', manager.revert(id, notes.path, true)))
                .to.deep.equal({ kind: 'not-reviewable', reason: 'it could not be read (it is now a named pipe, which is never read); not restorable' });
            expect(fs.lstatSync(notes.path).isFIFO()).to.equal(true);
        } finally {
            hostile.release();
        }
    });

    it('keeps a change as reviewed without touching the file, persisted and told; a reverted change cannot be kept', async () => {
        const { detail, notes, added } = await runTask();
        const told: string[] = [];
        manager.onChanged(summary => summary.changes.state === 'ready' && told.push(...summary.changes.files.filter(change => change.keptAt).map(change => change.relativePath)));
        expect(await manager.keep(detail.id, notes.path)).to.equal(true);
        expect(fs.readFileSync(notes.path, 'utf8')).to.equal('after\n');
        expect(told).to.deep.equal(['docs/notes.md']);
        expect(await manager.revert(detail.id, added.path, false)).to.deep.equal({ kind: 'reverted' });
        expect(await manager.keep(detail.id, added.path)).to.equal(false);
        expect(await manager.keep(detail.id, path.join(ws, 'docs', 'untouched.md'))).to.equal(false);
        expect(await manager.keep('0123456789abcdef', notes.path)).to.equal(false);

        const stored = fs.readdirSync(path.join(base, 'config'), { recursive: true }).map(String).find(file => file.includes(detail.id) && file.endsWith('.json'));
        expect(stored, 'the task is stored').not.to.equal(undefined);
        const record = JSON.parse(fs.readFileSync(path.join(base, 'config', stored!), 'utf8'));
        const kept = record.changes.files.find((change: FileChange) => change.relativePath === 'docs/notes.md');
        expect(kept.keptAt).to.be.a('number');
    });
});
