import { expect } from 'chai';
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { DiscoveryFileWriter } from '../../common/discovery-files';
import { DiscoveryFileVerdict, removeStaleDiscoveryFiles } from './discovery-file-cleaner';
import { IDE_MODE_FLAVOURS } from './ide-mode-flavours';
import { useTemporaryHome } from '../test/temporary-home';

/*
 * The container case with real PID namespaces: backends sharing ~/.qwen, ~/.claude or TMPDIR from
 * separate PID namespaces each see themselves as PID 1 (or another low number). A new backend must
 * not take a live window's files in another namespace for its own earlier ones, nor for a dead PID's.
 */

const WRITER = path.join(__dirname, '..', 'test', 'discovery-writer-fixture.js');
const CLEANER = path.join(__dirname, '..', 'test', 'discovery-cleaner-fixture.js');
const IS_ROOT = process.getuid?.() === 0;
/**
 * A fresh PID namespace with its own /proc, as a container has. Without root, inside a user namespace
 * that maps the user to itself, so files and directories have the same owner inside and out.
 */
const NEW_PID_NAMESPACE = [...(IS_ROOT ? [] : ['--user', '--map-current-user']), '--pid', '--fork', '--mount-proc'];

function pidNamespaceProblem(): string | undefined {
    if (process.platform !== 'linux') {
        return `PID namespaces are Linux only (this is ${process.platform})`;
    }
    const probe = spawnSync('unshare', [...NEW_PID_NAMESPACE, 'true'], { encoding: 'utf8', timeout: 10_000 });
    if (probe.error) {
        return `unshare could not run: ${probe.error.message}`;
    }
    if (probe.status !== 0) {
        return `unshare ${NEW_PID_NAMESPACE.join(' ')} failed with ${probe.status ?? probe.signal}: ${probe.stderr.trim()}`;
    }
    return undefined;
}

interface Report {
    readonly identity: DiscoveryFileWriter;
}
interface WriterReport extends Report {
    readonly files: string[];
}
interface CleanerReport extends Report {
    /** What the process table says about the cleaner itself. */
    readonly self?: { readonly startTime?: number };
    readonly removed: DiscoveryFileVerdict[];
    readonly kept: DiscoveryFileVerdict[];
}

/** Runs `command` and resolves with the JSON line it prints first (the process may go on running). */
function firstReport<T>(child: ChildProcess): Promise<T> {
    return new Promise((resolve, reject) => {
        let stdout = '';
        let stderr = '';
        child.stderr!.on('data', data => stderr += data);
        child.stdout!.on('data', data => {
            stdout += data;
            const end = stdout.indexOf('\n');
            if (end >= 0) {
                resolve(JSON.parse(stdout.slice(0, end)));
            }
        });
        child.on('error', reject);
        child.on('exit', (code, signal) => reject(new Error(`${child.spawnargs.join(' ')} ended (${code ?? signal}) without a report: ${stderr}`)));
    });
}

/** The processes whose parent is `pid`: how the test finds, in its own namespace, the PID 1 of one that unshare started. */
function childrenOf(pid: number): number[] {
    return fs.readdirSync('/proc').filter(name => /^\d+$/.test(name)).filter(name => {
        try {
            return /^PPid:\s*(\d+)$/m.exec(fs.readFileSync(`/proc/${name}/status`, 'utf8'))?.[1] === String(pid);
        } catch {
            return false; // Gone meanwhile.
        }
    }).map(Number);
}

async function scanHere(): Promise<{ removed: DiscoveryFileVerdict[]; kept: DiscoveryFileVerdict[] }> {
    const removed: DiscoveryFileVerdict[] = [];
    const kept: DiscoveryFileVerdict[] = [];
    for (const flavour of Object.values(IDE_MODE_FLAVOURS)) {
        const scan = await removeStaleDiscoveryFiles(flavour);
        removed.push(...scan.removed);
        kept.push(...scan.kept);
    }
    return { removed, kept };
}

const fileNames = (verdicts: readonly DiscoveryFileVerdict[]) => verdicts.map(verdict => verdict.file).sort();

describe('removeStaleDiscoveryFiles across real PID namespaces', function (): void {
    this.timeout(60_000);

    let home: ReturnType<typeof useTemporaryHome>;
    const started: ChildProcess[] = [];

    before(function (): void {
        const problem = pidNamespaceProblem();
        if (problem && IS_ROOT) {
            throw new Error(`Cannot create PID namespaces as root, so the container case is untested: ${problem}`);
        }
        if (problem) {
            console.warn(`      skipped: ${problem} (not root; CI runs this as root, where it must pass)`);
            this.skip();
        }
    });

    beforeEach(() => {
        home = useTemporaryHome();
        process.env.QWEN_HOME = path.join(home.dir, 'qwen');
        process.env.CLAUDE_CONFIG_DIR = path.join(home.dir, 'claude');
    });

    afterEach(() => {
        for (const child of started.splice(0)) {
            if (child.exitCode === null && child.signalCode === null) {
                child.kill('SIGKILL');
            }
        }
        home.restore();
    });

    function run(args: string[]): ChildProcess {
        const [command, ...rest] = args;
        const child = spawn(command, rest, { env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] });
        started.push(child);
        return child;
    }
    const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>(resolve => child.once('exit', () => resolve()));

    it('a new backend with the same PID in another namespace, and one in this namespace, keep a live writer\'s files', async () => {
        // --kill-child: should the test die, the writer goes with unshare.
        const unshare = run(['unshare', ...NEW_PID_NAMESPACE, '--kill-child=SIGKILL', process.execPath, WRITER, '41001', '41002', '41003']);
        const writer = await firstReport<WriterReport>(unshare);
        expect(writer.files).to.have.length(3);

        const cleaner = await firstReport<CleanerReport>(run(['unshare', ...NEW_PID_NAMESPACE, process.execPath, CLEANER]));
        // Exactly the container case: the same low PID, another namespace.
        expect(cleaner.identity.pid).to.equal(writer.identity.pid);
        expect(cleaner.identity.pidNamespace).to.match(/^pid:\[\d+\]$/).and.not.equal(writer.identity.pidNamespace);
        expect(cleaner.self?.startTime).to.be.a('number').and.equal(cleaner.identity.startTime);
        expect(cleaner.removed).to.deep.equal([]);
        expect(fileNames(cleaner.kept)).to.deep.equal([...writer.files].sort());
        cleaner.kept.forEach(verdict => expect(verdict.reason).to.contain('namespace'));
        writer.files.forEach(file => expect(fs.existsSync(file), file).to.equal(true));

        const here = await scanHere();
        expect(here.removed).to.deep.equal([]);
        expect(fileNames(here.kept)).to.deep.equal([...writer.files].sort());
        writer.files.forEach(file => expect(fs.existsSync(file), file).to.equal(true));

        // Killed from outside by its PID here: its namespace goes with it, and nothing here can prove it dead.
        const [writerPidHere] = childrenOf(unshare.pid!);
        expect(writerPidHere).to.be.a('number');
        process.kill(writerPidHere, 'SIGKILL');
        await exited(unshare);
        const afterDeath = await scanHere();
        expect(afterDeath.removed).to.deep.equal([]);
        writer.files.forEach(file => expect(fs.existsSync(file), file).to.equal(true));
    });

    it('trusts no start time where /proc shows another namespace\'s PIDs (a new namespace without its own /proc)', async () => {
        const withoutOwnProc = NEW_PID_NAMESPACE.filter(arg => arg !== '--mount-proc');
        const cleaner = await firstReport<CleanerReport>(run(['unshare', ...withoutOwnProc, process.execPath, CLEANER]));
        // It is PID 1, but /proc/1 there is the parent namespace's PID 1: alive, start time unknown.
        expect(cleaner.identity.pid).to.equal(1);
        expect(cleaner.identity.pidNamespace).to.match(/^pid:\[\d+\]$/);
        expect(cleaner.identity.startTime).to.equal(undefined);
        expect(cleaner.self).to.deep.equal({});
    });

    it('removes the files of a writer of this namespace once it is dead, not before', async () => {
        const child = run([process.execPath, WRITER, '42001', '42002', '42003']);
        const writer = await firstReport<WriterReport>(child);
        expect(writer.identity.pid).to.equal(child.pid);

        const whileAlive = await scanHere();
        expect(whileAlive.removed).to.deep.equal([]);
        expect(fileNames(whileAlive.kept)).to.deep.equal([...writer.files].sort());

        process.kill(child.pid!, 'SIGKILL');
        await exited(child);
        const afterDeath = await scanHere();
        expect(fileNames(afterDeath.removed)).to.deep.equal([...writer.files].sort());
        afterDeath.removed.forEach(verdict => expect(verdict.reason).to.equal(`its writer, process ${child.pid}, is gone`));
        writer.files.forEach(file => expect(fs.existsSync(file), file).to.equal(false));
    });
});
