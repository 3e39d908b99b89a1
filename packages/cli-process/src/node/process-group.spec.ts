import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as readline from 'readline';
import { signalProcessGroup, spawnInOwnGroup } from './process-group';

/** The process group of `pid`, from /proc (field 5 of stat, after the command name in parentheses). */
function processGroupOf(pid: number): number | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    } catch {
        return undefined;
    }
}

function isRunning(pid: number): boolean {
    const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
    return stat !== '' && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

describe('process groups', () => {
    it('start the command without a shell in a group of its own; signalling the group ends what it started too', async () => {
        // The child starts a grandchild (as the CLIs relaunch themselves) and prints its PID.
        const script = 'const c = require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });'
            + ' console.log(c.pid); setInterval(() => {}, 1000);';
        const child = spawnInOwnGroup(process.execPath, ['-e', script], { cwd: os.tmpdir(), env: process.env, stdio: ['ignore', 'pipe', 'ignore'] });
        const exited = new Promise(resolve => child.once('exit', resolve));
        try {
            const grandchild = Number(await new Promise<string>(resolve => readline.createInterface({ input: child.stdout! }).once('line', resolve)));
            expect(processGroupOf(child.pid!), 'the child leads a group').to.equal(child.pid);
            expect(processGroupOf(grandchild), 'the grandchild is in it').to.equal(child.pid);
            signalProcessGroup(child, 'SIGKILL');
            await exited;
            for (let waited = 0; isRunning(grandchild) && waited < 5000; waited += 20) {
                await new Promise(resolve => setTimeout(resolve, 20));
            }
            expect(isRunning(grandchild), 'the grandchild is gone').to.equal(false);
            // Signalling a group that is gone is harmless.
            signalProcessGroup(child, 'SIGKILL');
        } finally {
            signalProcessGroup(child, 'SIGKILL');
        }
    });
});
