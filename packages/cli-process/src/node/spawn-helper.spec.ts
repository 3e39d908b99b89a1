import { expect } from 'chai';
import { spawn } from 'child_process';
import * as readline from 'readline';
import { readProcessStat } from './process-identity';
import { SpawnHelper } from './spawn-helper';
import { until } from './test/until';

const SH = '/bin/sh';
const ENV = { PATH: '/usr/bin:/bin', ONLY: 'this' };

describe('SpawnHelper', function (): void {
    this.timeout(20000);
    let helper: SpawnHelper;
    beforeEach(() => {
        helper = new SpawnHelper();
    });
    afterEach(() => helper.dispose());

    it('runs a command from its helper process, with exactly the environment, folder and input given', async () => {
        const result = await helper.run({ command: SH, args: ['-c', 'echo "$PPID"; pwd; env | sort; cat; echo oops >&2; exit 3'], cwd: '/tmp', env: ENV, input: 'typed in\n' });
        const [parent, folder, ...rest] = result.stdout.toString().trim().split('\n');
        expect(Number(parent), 'the parent of the command').to.equal(helper.pid).and.not.equal(process.pid);
        expect(folder).to.equal('/tmp');
        // The shell adds PWD (and SHLVL): nothing else of this process leaks in.
        expect(rest.filter(line => !/^(PWD|SHLVL|_)=/.test(line))).to.deep.equal(['ONLY=this', 'PATH=/usr/bin:/bin', 'typed in']);
        expect(result.stderr.toString()).to.equal('oops\n');
        expect(result.code).to.equal(3);
        expect(result.signal).to.equal(null);
    });

    it('carries binary output whole and runs commands beside each other', async () => {
        const bytes = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 7) % 256));
        const [echoed, slept] = await Promise.all([
            helper.run({ command: '/bin/cat', args: [], env: ENV, input: bytes }),
            helper.run({ command: SH, args: ['-c', 'kill -TERM $$'], env: ENV })
        ]);
        expect(Buffer.compare(echoed.stdout, bytes)).to.equal(0);
        expect(slept).to.include({ code: null, signal: 'SIGTERM' });
    });

    it('refuses a command that is not an absolute path, and says why one could not start', async () => {
        await expectRejected(helper.run({ command: 'sh', args: [], env: ENV }), 'not an absolute path: sh');
        await expectRejected(helper.run({ command: '/nonexistent/git', args: [], env: ENV }), 'ENOENT');
        // The helper keeps serving.
        expect((await helper.run({ command: SH, args: ['-c', 'echo fine'], env: ENV })).stdout.toString()).to.equal('fine\n');
    });

    it('fails what a helper that died was running, and starts a new one for the next command', async () => {
        const first = (await helper.run({ command: SH, args: ['-c', 'true'], env: ENV }), helper.pid!);
        const running = helper.run({ command: SH, args: ['-c', 'sleep 30'], env: ENV });
        process.kill(first, 'SIGKILL');
        await expectRejected(running, 'the spawn helper exited (SIGKILL)');
        const again = await helper.run({ command: SH, args: ['-c', 'echo "$PPID"'], env: ENV });
        expect(Number(again.stdout.toString())).to.equal(helper.pid).and.not.equal(first);
    });

    it('runs commands from this process when it has no helper script', async () => {
        const here = new SpawnHelper(false);
        const result = await here.run({ command: SH, args: ['-c', 'echo "$PPID"'], env: ENV });
        expect(Number(result.stdout.toString())).to.equal(process.pid);
        expect(here.pid).to.equal(undefined);
    });

    it('neither keeps its parent alive nor outlives it', async () => {
        // A parent that runs one command and then has nothing left to do: it exits, and its helper with it.
        const script = `const { SpawnHelper } = require(${JSON.stringify(require.resolve('./spawn-helper'))});`
            + 'const helper = new SpawnHelper(); helper.run({ command: "/bin/sh", args: ["-c", "true"], env: {} }).then(() => console.log(helper.pid));';
        const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        const exited = new Promise<number | null>(resolve => parent.once('exit', resolve));
        const helperPid = Number(await new Promise<string>(resolve => readline.createInterface({ input: parent.stdout! }).once('line', resolve)));
        expect(helperPid).to.be.greaterThan(0);
        expect(await exited, 'the parent exits by itself').to.equal(0);
        // Orphaned, it may stay a zombie until something reaps it: exited is enough.
        await until(() => [undefined, 'Z'].includes(readProcessStat(helperPid)?.state), 'the helper to exit with its parent');
    });
});

async function expectRejected(promise: Promise<unknown>, message: string): Promise<void> {
    const error = await promise.then(() => undefined, (reason: Error) => reason);
    expect(error?.message).to.include(message);
}
