import { spawnSync } from 'child_process';

/** A PID that is certainly not running: a child that has already exited. */
export function deadPid(): number {
    return spawnSync(process.execPath, ['-e', '0']).pid!;
}
