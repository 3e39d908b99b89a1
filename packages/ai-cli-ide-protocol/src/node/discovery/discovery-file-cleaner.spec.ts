import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import type { DiscoveryFileWriter } from '../../common/discovery-files';
import { ClaudeCodeFlavour } from './claude-code-flavour';
import { GeminiCliFlavour } from './gemini-cli-flavour';
import { QwenCodeFlavour } from './qwen-code-flavour';
import { ABANDONED_TEMPORARY_FILE_AGE_MS, removeStaleDiscoveryFiles, StaleFileScan } from './discovery-file-cleaner';
import { useTemporaryHome } from '../test/temporary-home';
import { deadPid } from '@theia-cli-companion/cli-process/lib/node/test';
import { CliFlavour, DiscoveryEndpoint } from './cli-flavour';
import { ProcessTable } from '@theia-cli-companion/cli-process/lib/node';

const OUR_NAMESPACE = 'pid:[4026531836]';
const OTHER_NAMESPACE = 'pid:[4026532178]';
const OWN_START = 5000;

/** A process table where `live` maps each live PID to its start time (undefined: unreadable). */
function processTable(namespace: string | undefined, live: ReadonlyMap<number, number | undefined>): ProcessTable {
    return {
        pidNamespace: () => namespace,
        find: pid => live.has(pid) ? { startTime: live.get(pid) } : undefined
    };
}

describe('removeStaleDiscoveryFiles', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    beforeEach(() => home = useTemporaryHome());
    afterEach(() => home.restore());

    function place(dir: string, name: string, body: string | object): string {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const file = path.join(dir, name);
        fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body), { mode: 0o600 });
        return file;
    }
    const endpoint = (serverPid: number, port: number): DiscoveryEndpoint => ({ port, authToken: 't', workspaceRoots: ['/w'], serverPid });

    /** The file `flavour` writes for a server of `pid` on `port`, recording `writer` (none: as older versions wrote it). */
    function placeOurs(flavour: CliFlavour, pid: number, port: number, writer: DiscoveryFileWriter | undefined): string {
        const body = { ...flavour.discoveryFileContent(endpoint(pid, port)), theiaCompanion: writer };
        return place(flavour.discoveryDirectory(), flavour.discoveryFileName(endpoint(pid, port)), body);
    }
    /** A writer in `pidNamespace` (undefined: where there is no /proc). */
    const writerIn = (pidNamespace: string | undefined, pid: number, startTime: number | undefined): DiscoveryFileWriter => ({ pidNamespace, pid, startTime });
    const writer = (pid: number, startTime: number | undefined) => writerIn(OUR_NAMESPACE, pid, startTime);
    const files = (verdicts: StaleFileScan['removed']) => verdicts.map(verdict => verdict.file).sort();

    it('records the writing process in every file it writes', () => {
        for (const flavour of [GeminiCliFlavour, QwenCodeFlavour, ClaudeCodeFlavour]) {
            const file = place(flavour.discoveryDirectory(), flavour.discoveryFileName(endpoint(process.pid, 4000)),
                flavour.discoveryFileContent(endpoint(process.pid, 4000)));
            const owned = flavour.ownedFile(path.basename(file), fs.readFileSync(file, 'utf8'));
            expect(owned?.writer?.pid, flavour.id).to.equal(process.pid);
        }
    });

    for (const flavour of [GeminiCliFlavour, QwenCodeFlavour, ClaudeCodeFlavour]) {
        it(`${flavour.id}: removes a file only when its writer in this PID namespace is gone or its PID reused, and keeps a live writer's`, async () => {
            const gone = placeOurs(flavour, 3001, 1001, writer(3001, 100));
            const reused = placeOurs(flavour, 3002, 1002, writer(3002, 100));
            const live = placeOurs(flavour, 3003, 1003, writer(3003, 100));
            const table = processTable(OUR_NAMESPACE, new Map([[3002, 200], [3003, 100], [process.pid, OWN_START]]));

            const scan = await removeStaleDiscoveryFiles(flavour, { processes: table });

            expect(files(scan.removed)).to.deep.equal([gone, reused].sort());
            expect(scan.removed.find(verdict => verdict.file === gone)?.reason).to.contain('3001').and.contain('gone');
            expect(scan.removed.find(verdict => verdict.file === reused)?.reason).to.contain('reused');
            expect(scan.kept).to.deep.equal([{ file: live, reason: 'its writer, process 3003, is alive' }]);
            expect(fs.existsSync(live)).to.equal(true);
        });
    }

    it('keeps every file written in another PID namespace, even one carrying its own PID or a PID that is dead here', async () => {
        // The container case: two backends sharing ~/.qwen, each PID 1 in its own namespace.
        const sameLowPid = placeOurs(QwenCodeFlavour, process.pid, 1001, writerIn(OTHER_NAMESPACE, process.pid, 100));
        const deadHere = placeOurs(QwenCodeFlavour, 3001, 1002, writerIn(OTHER_NAMESPACE, 3001, 100));
        const noNamespace = placeOurs(QwenCodeFlavour, 3002, 1003, writerIn(undefined, 3002, 100));
        const table = processTable(OUR_NAMESPACE, new Map([[process.pid, OWN_START]]));

        const scan = await removeStaleDiscoveryFiles(QwenCodeFlavour, { processes: table });

        expect(scan.removed).to.deep.equal([]);
        expect(files(scan.kept)).to.deep.equal([sameLowPid, deadHere, noNamespace].sort());
        expect(scan.kept.find(verdict => verdict.file === deadHere)?.reason).to.contain(OTHER_NAMESPACE).and.contain('namespace');
        [sameLowPid, deadHere, noNamespace].forEach(file => expect(fs.existsSync(file), file).to.equal(true));
    });

    it('removes a file with its own PID only when the recorded start time proves an earlier process wrote it', async () => {
        const earlier = placeOurs(GeminiCliFlavour, process.pid, 2000, writer(process.pid, OWN_START - 1));
        const itself = placeOurs(GeminiCliFlavour, process.pid, 2001, writer(process.pid, OWN_START));
        const noStart = placeOurs(GeminiCliFlavour, process.pid, 2002, writer(process.pid, undefined));
        const table = processTable(OUR_NAMESPACE, new Map([[process.pid, OWN_START]]));

        const scan = await removeStaleDiscoveryFiles(GeminiCliFlavour, { processes: table });

        expect(files(scan.removed)).to.deep.equal([earlier]);
        expect(files(scan.kept)).to.deep.equal([itself, noStart].sort());
    });

    it('keeps files of older versions, which record no writer, whatever PID they carry', async () => {
        const dead = deadPid();
        const deadPidFile = placeOurs(GeminiCliFlavour, dead, 2000, undefined);
        const ownPidFile = placeOurs(QwenCodeFlavour, process.pid, 2001, undefined);

        const gemini = await removeStaleDiscoveryFiles(GeminiCliFlavour);
        const qwen = await removeStaleDiscoveryFiles(QwenCodeFlavour);

        expect([...gemini.removed, ...qwen.removed]).to.deep.equal([]);
        expect(gemini.kept.map(verdict => verdict.file)).to.deep.equal([deadPidFile]);
        expect(gemini.kept[0].reason).to.contain('does not record its writer');
        expect(qwen.kept.map(verdict => verdict.file)).to.deep.equal([ownPidFile]);
    });

    it('keeps the files of the ports this backend serves, whatever they record', async () => {
        const served = placeOurs(GeminiCliFlavour, 3001, 2001, writer(3001, 100));
        const scan = await removeStaleDiscoveryFiles(GeminiCliFlavour, { livePorts: new Set([2001]), processes: processTable(OUR_NAMESPACE, new Map()) });
        expect(scan.removed).to.deep.equal([]);
        expect(scan.kept).to.deep.equal([{ file: served, reason: 'port 2001 is served by this backend' }]);
    });

    it('without /proc, judges by PID liveness alone and never removes its own PID\'s file', async () => {
        const gone = placeOurs(ClaudeCodeFlavour, 3001, 1001, writerIn(undefined, 3001, undefined));
        const live = placeOurs(ClaudeCodeFlavour, 3002, 1002, writerIn(undefined, 3002, undefined));
        const own = placeOurs(ClaudeCodeFlavour, process.pid, 1003, writerIn(undefined, process.pid, undefined));
        const fromLinux = placeOurs(ClaudeCodeFlavour, 3003, 1004, writerIn(OUR_NAMESPACE, 3003, 100));
        const table = processTable(undefined, new Map([[3002, undefined], [process.pid, undefined]]));

        const scan = await removeStaleDiscoveryFiles(ClaudeCodeFlavour, { processes: table });

        expect(files(scan.removed)).to.deep.equal([gone]);
        expect(files(scan.kept)).to.deep.equal([live, own, fromLinux].sort());
    });

    it('with the real process table: removes a dead writer\'s file, keeps its own and other IDEs\', corrupt and unrelated files', async () => {
        const dead = deadPid();
        const { pidNamespace, startTime } = GeminiCliFlavour.ownedFile(`gemini-ide-server-${process.pid}-1.json`,
            JSON.stringify(GeminiCliFlavour.discoveryFileContent(endpoint(process.pid, 1))))!.writer!;
        const stale = placeOurs(GeminiCliFlavour, dead, 1000, { pidNamespace, pid: dead, startTime });
        const own = place(GeminiCliFlavour.discoveryDirectory(), `gemini-ide-server-${process.pid}-1001.json`,
            GeminiCliFlavour.discoveryFileContent(endpoint(process.pid, 1001)));
        const dir = GeminiCliFlavour.discoveryDirectory();
        const foreign = place(dir, `gemini-ide-server-${dead}-1002.json`, { port: 1002, workspacePath: '/w', authToken: 't', ideInfo: { name: 'vscode', displayName: 'VS Code' } });
        const corrupt = place(dir, `gemini-ide-server-${dead}-1003.json`, '{"port":');
        const unrelated = place(dir, 'notes.txt', 'hello');

        const scan = await removeStaleDiscoveryFiles(GeminiCliFlavour);

        expect(files(scan.removed)).to.deep.equal([stale]);
        expect(scan.removed[0].reason).to.contain(String(dead));
        expect(files(scan.kept)).to.deep.equal([own]);
        for (const file of [own, foreign, corrupt, unrelated]) {
            expect(fs.existsSync(file), file).to.equal(true);
        }
    });

    describe('unfinished writes (temporary files)', () => {
        const longAgo = () => new Date(Date.now() - ABANDONED_TEMPORARY_FILE_AGE_MS - 60_000);

        it('removes only old ones, whatever PID their name carries, and keeps ones a live write may hold', async () => {
            const dir = QwenCodeFlavour.discoveryDirectory();
            const oldOfLive = place(dir, `.3000.lock.${process.pid}-0123456789ab.tmp`, 'partial');
            const oldOfDead = place(dir, `.3001.lock.${deadPid()}-0123456789ab.tmp`, 'partial');
            const fresh = place(dir, `.3002.lock.${deadPid()}-0123456789ab.tmp`, 'partial');
            for (const file of [oldOfLive, oldOfDead]) {
                fs.utimesSync(file, longAgo(), longAgo());
            }

            const scan = await removeStaleDiscoveryFiles(QwenCodeFlavour);

            expect(files(scan.removed)).to.deep.equal([oldOfLive, oldOfDead].sort());
            expect(files(scan.kept)).to.deep.equal([fresh]);
            expect(scan.kept[0].reason).to.contain('in progress');
            expect(fs.existsSync(fresh)).to.equal(true);
        });

        it('keeps old ones that are symbolic links or directories', async () => {
            const dir = QwenCodeFlavour.discoveryDirectory();
            const target = place(home.dir, 'target', 'keep me');
            fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
            const link = path.join(dir, `.3000.lock.${deadPid()}-0123456789ab.tmp`);
            fs.symlinkSync(target, link);
            fs.lutimesSync(link, longAgo(), longAgo());
            const directory = path.join(dir, `.3001.lock.${deadPid()}-0123456789ab.tmp`);
            fs.mkdirSync(directory);
            fs.utimesSync(directory, longAgo(), longAgo());

            const scan = await removeStaleDiscoveryFiles(QwenCodeFlavour);

            expect(scan.removed).to.deep.equal([]);
            expect(files(scan.kept)).to.deep.equal([link, directory].sort());
            expect(fs.lstatSync(link).isSymbolicLink()).to.equal(true);
            expect(fs.readFileSync(target, 'utf8')).to.equal('keep me');
        });

        it('keeps old ones of another user', async function (): Promise<void> {
            if (process.getuid?.() !== 0) {
                this.skip(); // Only root can give a file to another user; CI runs as root.
            }
            const file = place(QwenCodeFlavour.discoveryDirectory(), `.3000.lock.${deadPid()}-0123456789ab.tmp`, 'partial');
            fs.chownSync(file, 65534, 65534);
            fs.utimesSync(file, longAgo(), longAgo());

            const scan = await removeStaleDiscoveryFiles(QwenCodeFlavour);

            expect(scan.removed).to.deep.equal([]);
            expect(scan.kept.map(verdict => verdict.reason)).to.deep.equal(['an unfinished write that is not a regular file of this user (uid 65534)']);
            expect(fs.existsSync(file)).to.equal(true);
        });
    });

    it('does nothing when the directory does not exist', async () => {
        expect(await removeStaleDiscoveryFiles(QwenCodeFlavour)).to.deep.equal({ removed: [], kept: [] });
    });
});
