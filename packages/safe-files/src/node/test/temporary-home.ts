import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * Points TMPDIR and HOME at a fresh directory for the duration of a test, so nothing a test writes lands in the real
 * home or /tmp. Returns the directory and a restore function.
 */
export function useTemporaryHome(): { dir: string; restore: () => void } {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'companion-spec-')));
    const saved = { TMPDIR: process.env.TMPDIR, HOME: process.env.HOME };
    process.env.TMPDIR = path.join(dir, 'tmp');
    process.env.HOME = path.join(dir, 'home');
    fs.mkdirSync(process.env.TMPDIR);
    fs.mkdirSync(process.env.HOME);
    return {
        dir,
        restore: () => {
            for (const [key, value] of Object.entries(saved)) {
                if (value === undefined) {
                    delete process.env[key];
                } else {
                    process.env[key] = value;
                }
            }
            fs.rmSync(dir, { recursive: true, force: true });
        }
    };
}
