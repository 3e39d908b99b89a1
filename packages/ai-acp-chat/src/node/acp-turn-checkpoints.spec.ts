import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { expectStillServing, HostileFiles, within } from '@theia-cli-companion/safe-files/lib/node/test';
import { AcpTurnCheckpoints } from './acp-turn-checkpoints';

describe('AcpTurnCheckpoints', () => {
    let base: string;
    let root: string;
    let configDir: string;
    const logged: string[] = [];
    const hostile = new HostileFiles();

    const checkpointsInstance = () => {
        const container = new Container();
        const log = async (message: unknown) => { logged.push(String(message)); };
        container.bind(ILogger).toConstantValue({ debug: log, info: log, warn: log, error: log } as unknown as ILogger);
        container.bind(EnvVariablesServer).toConstantValue({ getConfigDirUri: async () => FileUri.create(configDir).toString() } as EnvVariablesServer);
        container.bind(AcpTurnCheckpoints).toSelf().inSingletonScope();
        return container.get(AcpTurnCheckpoints);
    };
    const file = (name: string) => path.join(root, name);
    const write = (name: string, text: string) => fs.writeFileSync(file(name), text);
    const read = (name: string) => fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : undefined;

    /** One turn: the files `changes` names get their text (undefined: removed) while it runs. */
    async function turn(checkpoints: AcpTurnCheckpoints, turnId: string, changes: Record<string, string | undefined>) {
        await checkpoints.begin('chat-1', turnId, [root]);
        for (const [name, text] of Object.entries(changes)) {
            if (text === undefined) {
                fs.rmSync(file(name));
            } else {
                write(name, text);
            }
        }
        return checkpoints.end('chat-1', turnId);
    }

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-spec-')));
        root = path.join(base, 'workspace');
        configDir = path.join(base, 'config');
        fs.mkdirSync(root);
        logged.length = 0;
        write('a.txt', 'a before\n');
        write('b.txt', 'b before\r\n');
        write('keep.txt', 'untouched\n');
    });

    afterEach(() => {
        hostile.release();
        fs.rmSync(base, { recursive: true, force: true });
    });

    it('lists what a turn changed, whoever wrote it, and nothing for a turn that changed nothing', async () => {
        const checkpoints = checkpointsInstance();
        expect(await turn(checkpoints, 'quiet', {})).to.equal(undefined);
        const checkpoint = await turn(checkpoints, 't1', { 'a.txt': 'a after\n', 'new.txt': 'new\n', 'b.txt': undefined });
        expect(checkpoint?.changes.map(change => [change.relativePath, change.kind])).to.deep.equal([['a.txt', 'modified'], ['b.txt', 'deleted'], ['new.txt', 'added']]);
        expect(await checkpoints.content('chat-1', 't1', file('a.txt'), 'before')).to.equal('a before\n');
        expect(await checkpoints.content('chat-1', 't1', file('a.txt'), 'after')).to.equal('a after\n');
        expect(await checkpoints.content('chat-1', 't1', file('new.txt'), 'before')).to.equal(undefined);
    });

    it('restores two files to before the turn, byte for byte, and again after a backend restart', async () => {
        await turn(checkpointsInstance(), 't1', { 'a.txt': 'a after\n', 'b.txt': 'b after\n', 'new.txt': 'new\n' });
        const restarted = checkpointsInstance();
        const result = await restarted.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] });
        expect(result).to.deep.equal({ kind: 'restored', restored: [file('a.txt'), file('b.txt'), file('new.txt')], failed: [] });
        expect([read('a.txt'), read('b.txt'), read('new.txt'), read('keep.txt')]).to.deep.equal(['a before\n', 'b before\r\n', undefined, 'untouched\n']);
        expect((await restarted.checkpoint('chat-1', 't1'))?.changes.every(change => change.restoredAt !== undefined)).to.equal(true);
    });

    it('restoring an earlier turn undoes the later turns too, to the content before the earlier one', async () => {
        const checkpoints = checkpointsInstance();
        await turn(checkpoints, 't1', { 'a.txt': 'a one\n' });
        await turn(checkpoints, 't2', { 'a.txt': 'a two\n', 'b.txt': 'b two\n' });
        await checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] });
        expect([read('a.txt'), read('b.txt')]).to.deep.equal(['a before\n', 'b before\r\n']);
    });

    it('never overwrites a file changed after the turn without being told: names it, writes nothing; then overwrites or skips it as told', async () => {
        const checkpoints = checkpointsInstance();
        await turn(checkpoints, 't1', { 'a.txt': 'a after\n', 'b.txt': 'b after\n' });
        write('b.txt', 'the user\'s own edit\n');
        expect(await checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] })).to.deep.equal({ kind: 'changed-since', files: [file('b.txt')] });
        expect([read('a.txt'), read('b.txt')]).to.deep.equal(['a after\n', 'the user\'s own edit\n']);
        // Unsaved edits in the window count as a change too.
        expect(await checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], dirty: [file('a.txt')], roots: [root] }))
            .to.deep.equal({ kind: 'changed-since', files: [file('a.txt'), file('b.txt')] });

        expect(await checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [file('b.txt')], roots: [root] }))
            .to.deep.equal({ kind: 'restored', restored: [file('a.txt')], failed: [] });
        expect([read('a.txt'), read('b.txt')]).to.deep.equal(['a before\n', 'the user\'s own edit\n']);

        expect(await checkpoints.restore('chat-1', 't1', { overwrite: [file('b.txt')], skip: [], roots: [root] }))
            .to.deep.equal({ kind: 'restored', restored: [file('b.txt')], failed: [] });
        expect(read('b.txt')).to.equal('b before\r\n');
    });

    it('restores one file of a turn, and applies it again as the turn left it', async () => {
        const checkpoints = checkpointsInstance();
        await turn(checkpoints, 't1', { 'a.txt': 'a after\n', 'b.txt': 'b after\n' });
        await checkpoints.restore('chat-1', 't1', { files: [file('a.txt')], overwrite: [], skip: [], roots: [root] });
        expect([read('a.txt'), read('b.txt')]).to.deep.equal(['a before\n', 'b after\n']);
        write('a.txt', 'edited meanwhile\n');
        expect(await checkpoints.reapply('chat-1', 't1', file('a.txt'), false, [root])).to.deep.equal({ kind: 'changed-since', files: [file('a.txt')] });
        expect(await checkpoints.reapply('chat-1', 't1', file('a.txt'), true, [root])).to.deep.equal({ kind: 'restored', restored: [file('a.txt')], failed: [] });
        expect(read('a.txt')).to.equal('a after\n');
        expect((await checkpoints.checkpoint('chat-1', 't1'))?.changes.find(change => change.path === file('a.txt'))?.restoredAt).to.equal(undefined);
    });

    it('sets an unreadable record aside with a warning and keeps working', async () => {
        await turn(checkpointsInstance(), 't1', { 'a.txt': 'a after\n' });
        const [record] = fs.readdirSync(path.join(configDir, 'cli-companion', 'acp-checkpoints', 'chats'));
        fs.writeFileSync(path.join(configDir, 'cli-companion', 'acp-checkpoints', 'chats', record), '[{"turnId": 5}]');
        const restarted = checkpointsInstance();
        expect(await restarted.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] })).to.include({ kind: 'unavailable' });
        expect(logged.join('\n')).to.match(/checkpoints of chat chat-1 .* are unreadable and were set aside/);
        expect(await turn(restarted, 't2', { 'a.txt': 'again\n' })).to.not.equal(undefined);
    });

    it('a restore over a link to /dev/zero the turn left says "changed since" within a second, unread, and the backend keeps serving', async () => {
        const checkpoints = checkpointsInstance();
        await checkpoints.begin('chat-1', 't1', [root]);
        hostile.linkToDevZero(file('a.txt'));
        expect((await checkpoints.end('chat-1', 't1'))?.changes.map(change => [change.relativePath, change.kind])).to.deep.equal([['a.txt', 'deleted']]);
        expect(await within(1000, 'a restore over a link to /dev/zero', checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] })))
            .to.deep.equal({ kind: 'changed-since', files: [file('a.txt')] });
        await expectStillServing(file('keep.txt'));
        expect(fs.readlinkSync(file('a.txt'))).to.equal('/dev/zero');
    });

    it('restores over named pipes say "changed since" within a second, five at once, and an unrelated read still completes', async () => {
        const checkpoints = checkpointsInstance();
        await turn(checkpoints, 't1', { 'a.txt': 'a after\n', 'b.txt': 'b after\n' });
        hostile.pipe(file('a.txt'));
        const restores = Promise.all([1, 2, 3, 4, 5].map(() => checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] })));
        expect(await within(1000, 'five restores over a named pipe', restores)).to.deep.equal(Array(5).fill({ kind: 'changed-since', files: [file('a.txt')] }));
        await expectStillServing(file('keep.txt'));
        // Told to overwrite it, the pipe is not written through (nor waited on): the file is named as not restored.
        const forced = await within(1000, 'a forced restore over a named pipe', checkpoints.restore('chat-1', 't1', { overwrite: [file('a.txt')], skip: [], roots: [root] }));
        expect(forced.kind === 'restored' && forced.failed.map(failure => failure.path)).to.deep.equal([file('a.txt')]);
        expect(fs.lstatSync(file('a.txt')).isFIFO()).to.equal(true);
        expect(await within(1000, 'a re-apply over a named pipe', checkpoints.reapply('chat-1', 't1', file('a.txt'), false, [root])))
            .to.deep.equal({ kind: 'changed-since', files: [file('a.txt')] });
    });

    it('a turn that left a named pipe among its files still lists its other changes, the pipe as changed and not restorable; the folder stays on git', async () => {
        const checkpoints = checkpointsInstance();
        await checkpoints.begin('chat-1', 't1', [root]);
        write('a.txt', 'a after\n');
        write('new.txt', 'new\n');
        hostile.pipe(file('b.txt'));
        const checkpoint = await within(5000, 'the end of a turn with a named pipe', checkpoints.end('chat-1', 't1'));
        expect(checkpoint?.error).to.equal(undefined);
        expect(checkpoint?.changes.map(change => [change.relativePath, change.kind, change.reviewable, change.unreadable])).to.deep.equal([
            ['a.txt', 'modified', true, undefined],
            ['b.txt', 'modified', false, 'it is now a named pipe, which is never read'],
            ['new.txt', 'added', true, undefined]
        ]);
        expect(await within(1000, 'a restore of a turn with a named pipe', checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] }))).to.deep.equal({
            kind: 'restored', restored: [file('a.txt'), file('new.txt')],
            failed: [{ path: file('b.txt'), reason: 'it could not be read (it is now a named pipe, which is never read); not restorable' }]
        });
        expect(fs.lstatSync(file('b.txt')).isFIFO()).to.equal(true);
        expect(logged.join('\n')).to.not.match(/reading its files instead|different engines|could not be recorded/);
        // The next turn is recorded by git as before (the pipe, still there and unchanged, is not listed again).
        expect((await turn(checkpoints, 't2', { 'keep.txt': 'now changed\n' }))?.changes.map(change => [change.relativePath, change.unreadable])).to.deep.equal([
            ['keep.txt', undefined]
        ]);
        expect(logged.join('\n')).to.not.match(/reading its files instead/);
    });

    it('a turn whose ends were recorded by different engines says so in its checkpoint, never "nothing changed"', async () => {
        const checkpoints = checkpointsInstance();
        await checkpoints.begin('chat-1', 't1', [root]);
        write('a.txt', 'a after\n');
        // begin() resolves once git holds the contents; the tree of the turn's start is written by now.
        await checkpoints.settled();
        // Our private index is broken meanwhile: git cannot record the turn's end, the folder is read file by file.
        const gitDirs = path.join(configDir, 'cli-companion', 'acp-checkpoints', 'git');
        for (const name of fs.readdirSync(gitDirs)) {
            fs.writeFileSync(path.join(gitDirs, name, 'index'), 'not an index');
        }
        const checkpoint = await checkpoints.end('chat-1', 't1');
        expect(checkpoint?.error).to.match(/recorded by git at one end and file by file at the other/);
        expect((await checkpoints.checkpoint('chat-1', 't1'))?.error).to.equal(checkpoint?.error);
    });

    it('judges a restore by the chat\'s folders now, not by those its stored record names: a tampered record cannot widen where it writes', async () => {
        await turn(checkpointsInstance(), 't1', { 'a.txt': 'a after\n' });
        const outside = path.join(base, 'outside');
        fs.mkdirSync(outside);
        fs.writeFileSync(path.join(outside, 'a.txt'), 'a after\n');
        // The record (a file of ours on disk) now names a wider folder and a file out of the workspace.
        const chats = path.join(configDir, 'cli-companion', 'acp-checkpoints', 'chats');
        const record = path.join(chats, fs.readdirSync(chats).find(name => name.endsWith('.json'))!);
        const [stored] = JSON.parse(fs.readFileSync(record, 'utf8'));
        stored.roots = [base];
        stored.changes.push({ ...stored.changes[0], path: path.join(outside, 'a.txt'), relativePath: '../outside/a.txt' });
        fs.writeFileSync(record, JSON.stringify([stored]));
        const restarted = checkpointsInstance();
        const result = await restarted.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] });
        expect(result.kind === 'restored' && result.restored).to.deep.equal([file('a.txt')]);
        expect(result.kind === 'restored' && result.failed.map(failure => [failure.path, failure.reason])).to.deep.equal([
            [
                path.join(outside, 'a.txt'),
                `it no longer lies inside the workspace folders (${path.join(outside, 'a.txt')} is in a folder that is outside the workspace folders (${root}))`
            ]
        ]);
        expect(fs.readFileSync(path.join(outside, 'a.txt'), 'utf8')).to.equal('a after\n');
        expect(await restarted.reapply('chat-1', 't1', path.join(outside, 'a.txt'), true, [root])).to.deep.include({ restored: [] });
        expect(fs.readFileSync(path.join(outside, 'a.txt'), 'utf8')).to.equal('a after\n');
    });

    it('refuses to restore through a folder swapped for a link out of the workspace', async () => {
        fs.mkdirSync(path.join(root, 'docs'));
        write('docs/notes.md', 'notes before\n');
        const checkpoints = checkpointsInstance();
        await turn(checkpoints, 't1', { 'docs/notes.md': 'notes after\n' });
        const outside = path.join(base, 'outside');
        fs.mkdirSync(outside);
        fs.writeFileSync(path.join(outside, 'notes.md'), 'notes after\n');
        fs.rmSync(path.join(root, 'docs'), { recursive: true });
        fs.symlinkSync(outside, path.join(root, 'docs'));
        const result = await checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] });
        expect(result.kind === 'restored' && result.failed[0]?.reason).to.match(/no longer lies inside the workspace folders/);
        expect(fs.readFileSync(path.join(outside, 'notes.md'), 'utf8')).to.equal('notes after\n');
    });
});
