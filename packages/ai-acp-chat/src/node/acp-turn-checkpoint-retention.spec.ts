import { expect } from 'chai';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { AcpTurnCheckpoints } from './acp-turn-checkpoints';

/** Files under `dir` (recursively); none when it does not exist. */
const filesUnder = (dir: string): string[] => fs.existsSync(dir)
    ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter(entry => entry.isFile()).map(entry => path.join(entry.parentPath ?? entry.path, entry.name))
    : [];
const sha = (content: Buffer) => crypto.createHash('sha256').update(content).digest('hex');

/** Collects right after a turn ends, not 10 s later. */
class CollectedSoon extends AcpTurnCheckpoints {
    protected override readonly collectionDelayMs = 0;
}

describe('AcpTurnCheckpoints: retention and collection', function (): void {
    this.timeout(60000);
    let base: string;
    let root: string;
    let configDir: string;
    let checkpoints: AcpTurnCheckpoints;
    const logged: string[] = [];

    const checkpointsInstance = (soon = false) => {
        const container = new Container();
        const log = async (message: unknown) => { logged.push(String(message)); };
        container.bind(ILogger).toConstantValue({ debug: log, info: log, warn: log, error: log } as unknown as ILogger);
        container.bind(EnvVariablesServer).toConstantValue({ getConfigDirUri: async () => FileUri.create(configDir).toString() } as EnvVariablesServer);
        container.bind(AcpTurnCheckpoints).to(soon ? CollectedSoon : AcpTurnCheckpoints).inSingletonScope();
        return container.get(AcpTurnCheckpoints);
    };
    const file = (name: string) => path.join(root, name);
    const store = () => path.join(configDir, 'cli-companion', 'acp-checkpoints');
    const storedBlobs = () => fs.existsSync(path.join(store(), 'blobs')) ? fs.readdirSync(path.join(store(), 'blobs')).filter(name => /^[0-9a-f]{64}$/.test(name)).sort() : [];
    const gitObjects = () => filesUnder(path.join(store(), 'git')).filter(candidate => /[/\\]objects[/\\][0-9a-f]{2}[/\\]/.test(candidate)).length;

    /** One turn of `chat`: each named file gets `bytes` random bytes while it runs; the contents written are returned. */
    async function turn(chat: string, turnId: string, names: string[], bytes: number): Promise<Map<string, Buffer>> {
        await checkpoints.begin(chat, turnId, [root]);
        const written = new Map(names.map(name => [name, crypto.randomBytes(bytes)]));
        written.forEach((content, name) => fs.writeFileSync(file(name), content));
        expect((await checkpoints.end(chat, turnId))?.changes.length, turnId).to.equal(names.length);
        return written;
    }

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-retention-spec-')));
        root = path.join(base, 'workspace');
        configDir = path.join(base, 'config');
        fs.mkdirSync(root);
        logged.length = 0;
        checkpoints = checkpointsInstance();
    });

    afterEach(async () => {
        checkpoints.dispose();
        await checkpoints.settled();
        fs.rmSync(base, { recursive: true, force: true });
    });

    it('keeps the latest turns per chat with everything their restore needs (byte for byte after the collection), and removes the rest', async () => {
        const initial = crypto.randomBytes(64 * 1024);
        fs.writeFileSync(file('data.bin'), initial);
        checkpoints.setRetention({ turnsPerChat: 2, maxStorageMegabytes: 1024 });
        const contents: Buffer[] = [initial];
        for (const id of ['t1', 't2', 't3', 't4']) {
            contents.push((await turn('chat-1', id, ['data.bin'], 64 * 1024)).get('data.bin')!);
        }
        // A turn of another chat is running while the store is collected: its "before" must survive too.
        const other = crypto.randomBytes(1000);
        fs.writeFileSync(file('other.txt'), other);
        await checkpoints.begin('chat-2', 'r1', [root]);
        const objectsBefore = gitObjects();
        const collected = await checkpoints.collect();
        expect(collected.turnsRemoved, 'the two oldest turns of chat-1 went when they were ended').to.equal(0);
        // Kept: the contents turns t3 and t4 go between (before t3 … after t4); t1's and t2's own contents are gone.
        expect(storedBlobs()).to.deep.equal([contents[2], contents[3], contents[4]].map(sha).sort());
        expect(collected.blobsRemoved).to.equal(2);
        expect(gitObjects(), 'the private git store lost the snapshots nothing needs').to.be.lessThan(objectsBefore);

        fs.writeFileSync(file('other.txt'), 'changed by the running turn\n');
        const ended = await checkpoints.end('chat-2', 'r1');
        expect(ended?.changes.map(change => change.relativePath), 'the running turn was compared from its kept snapshot').to.deep.equal(['other.txt']);
        const restoredOther = await checkpoints.restore('chat-2', 'r1', { overwrite: [], skip: [], roots: [root] });
        expect(restoredOther).to.deep.equal({ kind: 'restored', restored: [file('other.txt')], failed: [] });
        expect(fs.readFileSync(file('other.txt')).equals(other)).to.equal(true);

        expect(await checkpoints.restore('chat-1', 't3', { overwrite: [], skip: [], roots: [root] })).to.deep.equal({ kind: 'restored', restored: [file('data.bin')], failed: [] });
        expect(fs.readFileSync(file('data.bin')).equals(contents[2]), 'restored byte for byte to before t3').to.equal(true);
        expect(await checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] })).to.deep.equal({
            kind: 'unavailable', reason: 'its checkpoint was removed to keep only the latest 2 turns of a chat (aiCliCompanion.checkpoints.turnsPerChat)'
        });
        expect(await checkpoints.reapply('chat-1', 't2', file('data.bin'), false, [root])).to.have.property('kind', 'unavailable');
        // Snapshots go on from the pruned store: a later turn is listed and restored.
        const after = (await turn('chat-1', 't5', ['data.bin'], 1000)).get('data.bin')!;
        expect(fs.readFileSync(file('data.bin')).equals(after)).to.equal(true);
        expect(await checkpoints.restore('chat-1', 't5', { overwrite: [], skip: [], roots: [root] })).to.have.property('kind', 'restored');
        expect(fs.readFileSync(file('data.bin')).equals(contents[2])).to.equal(true);
    });

    it('keeps the store under its size: the oldest turns of the chat used least recently go first, and their restore says so', async () => {
        const names = (prefix: string) => [1, 2, 3, 4].map(n => `${prefix}${n}.bin`);
        const initial = new Map([...names('old'), ...names('new')].map(name => [name, crypto.randomBytes(64 * 1024)]));
        initial.forEach((content, name) => fs.writeFileSync(file(name), content));
        // Each turn rewrites four files of 64 KiB: 256 KiB of new contents per turn; 1 MiB holds the four newest.
        checkpoints.setRetention({ turnsPerChat: 100, maxStorageMegabytes: 1 });
        for (const id of ['o1', 'o2', 'o3']) {
            await turn('old-chat', id, names('old'), 64 * 1024);
        }
        const beforeN1 = new Map(names('new').map(name => [name, fs.readFileSync(file(name))]));
        for (const id of ['n1', 'n2']) {
            await turn('new-chat', id, names('new'), 64 * 1024);
        }
        const collected = await checkpoints.collect();
        expect(collected.keptBytes).to.be.at.most(1024 * 1024);
        expect(collected.removed.reduce((sum, chat) => sum + chat.bySize, 0)).to.equal(3);
        const blobBytes = storedBlobs().reduce((sum, name) => sum + fs.statSync(path.join(store(), 'blobs', name)).size, 0);
        expect(blobBytes, 'the blobs left fit the cap').to.be.at.most(1024 * 1024);
        for (const id of ['o1', 'o2', 'o3']) {
            expect(await checkpoints.restore('old-chat', id, { overwrite: [], skip: [], roots: [root] }), id).to.deep.equal({
                kind: 'unavailable', reason: 'its checkpoint was removed to keep the chat checkpoints under 1 MiB (aiCliCompanion.checkpoints.maxStorageMegabytes)'
            });
        }
        const restored = await checkpoints.restore('new-chat', 'n1', { overwrite: [], skip: [], roots: [root] });
        expect(restored).to.have.property('kind', 'restored');
        for (const name of names('new')) {
            expect(fs.readFileSync(file(name)).equals(beforeN1.get(name)!), name).to.equal(true);
        }
        expect(logged.some(line => line.includes('3 turn(s) and'))).to.equal(true);
    });

    it('collects by itself after turns end: the store is back under its cap without anyone asking', async () => {
        checkpoints.dispose();
        checkpoints = checkpointsInstance(true);
        fs.writeFileSync(file('data.bin'), crypto.randomBytes(256 * 1024));
        checkpoints.setRetention({ turnsPerChat: 100, maxStorageMegabytes: 1 });
        for (const id of ['t1', 't2', 't3', 't4', 't5', 't6']) {
            await turn('chat-1', id, ['data.bin'], 256 * 1024);
        }
        await checkpoints.collected();
        const blobBytes = storedBlobs().reduce((sum, name) => sum + fs.statSync(path.join(store(), 'blobs', name)).size, 0);
        expect(blobBytes).to.be.at.most(1024 * 1024);
        expect(await checkpoints.restore('chat-1', 't1', { overwrite: [], skip: [], roots: [root] })).to.have.property('kind', 'unavailable');
        expect(await checkpoints.restore('chat-1', 't6', { overwrite: [], skip: [], roots: [root] })).to.have.property('kind', 'restored');
    });

    it('reports the space the store takes, its cap and what the cap counts', async () => {
        fs.writeFileSync(file('a.txt'), 'a\n');
        checkpoints.setRetention({ turnsPerChat: 5, maxStorageMegabytes: 64 });
        await turn('chat-1', 't1', ['a.txt'], 4096);
        const usage = await checkpoints.storageUsage();
        expect(usage).to.deep.include({ id: 'acp-checkpoints', path: store(), limit: { bytes: 64 * 1024 * 1024, counts: ['blobs', 'records'] } });
        expect(usage.parts.map(part => part.name)).to.deep.equal(['blobs', 'records', 'git']);
        expect(usage.parts.find(part => part.name === 'blobs')!.bytes).to.equal(4096 + 2);
        expect(usage.bytes).to.equal(usage.parts.reduce((sum, part) => sum + part.bytes, 0));
    });
});
