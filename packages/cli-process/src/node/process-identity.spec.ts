import { expect } from 'chai';
import { spawn } from 'child_process';
import * as fs from 'fs';
import { currentPidNamespace, currentProcessIdentity, parseProcessStat, readProcessStat, SYSTEM_PROCESSES } from './process-identity';
import { deadPid } from './test/dead-pid';
import { until } from './test/until';

/** A /proc/<pid>/stat line with 52 fields; `startTime` is field 22. */
function statLine(pid: number, comm: string, state: string, startTime: number | string): string {
    const fields = [state, ...Array.from({ length: 18 }, (_, i) => String(i + 1)), String(startTime), ...Array.from({ length: 30 }, () => '0')];
    return `${pid} (${comm}) ${fields.join(' ')}\n`;
}

describe('process identity', () => {
    describe('parseProcessStat', () => {
        it('reads the PID, the state and field 22, counting fields after the last parenthesis of the name', () => {
            expect(parseProcessStat(statLine(42, 'node', 'S', 987654))).to.deep.equal({ pid: 42, state: 'S', startTime: 987654 });
            // A process may call itself anything, spaces and parentheses included.
            expect(parseProcessStat(statLine(7, 'a) b (c) 1 2 3', 'Z', 12))).to.deep.equal({ pid: 7, state: 'Z', startTime: 12 });
        });

        it('refuses what is not a stat line', () => {
            const texts = ['', 'garbage', '42 (node S 1 2', '42 (node) S 1 2 3', statLine(0, 'x', 'S', 1), statLine(1, 'x', 'SS', 1),
                statLine(1, 'x', 'S', 'x'), statLine(1, 'x', 'S', '-1'), statLine(1, 'x', 'S', '1e3')];
            for (const text of texts) {
                expect(parseProcessStat(text), JSON.stringify(text)).to.equal(undefined);
            }
        });
    });

    describe('on Linux', () => {
        before(function (): void {
            if (!fs.existsSync('/proc/self/stat')) {
                this.skip(); // No /proc (macOS): the identity has no namespace nor start time there.
            }
        });

        it('records this process: its PID namespace, PID and start time', () => {
            const identity = currentProcessIdentity();
            expect(identity.pidNamespace).to.match(/^pid:\[\d+\]$/).and.equal(currentPidNamespace());
            expect(identity.pid).to.equal(process.pid);
            expect(identity.startTime).to.be.a('number').and.equal(readProcessStat(process.pid)?.startTime);
            expect(SYSTEM_PROCESSES.pidNamespace()).to.equal(identity.pidNamespace);
            expect(SYSTEM_PROCESSES.find(process.pid)).to.deep.equal({ startTime: identity.startTime });
        });

        it('finds live processes with their start time, and neither dead ones nor zombies', async () => {
            // The shell's background child, killed once `sleep` has replaced the shell: `sleep` never reaps it.
            const child = spawn('sh', ['-c', 'sleep 30 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
            try {
                const zombie = Number(await new Promise<string>(resolve => child.stdout.once('data', data => resolve(String(data)))));
                await until(() => fs.readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim() === 'sleep', 'the shell to become sleep');
                process.kill(zombie, 'SIGKILL');
                await until(() => readProcessStat(zombie)?.state === 'Z', 'the zombie');
                const found = SYSTEM_PROCESSES.find(child.pid!);
                expect(found?.startTime).to.be.at.least(currentProcessIdentity().startTime!);
                expect(found?.startTime).to.equal(readProcessStat(child.pid!)?.startTime);
                expect(SYSTEM_PROCESSES.find(zombie)).to.equal(undefined);
                expect(SYSTEM_PROCESSES.find(deadPid())).to.equal(undefined);
            } finally {
                child.kill('SIGKILL');
            }
        });
    });
});
