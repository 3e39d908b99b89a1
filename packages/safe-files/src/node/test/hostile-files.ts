import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';

/**
 * Files an agent can leave where a regular one was: a named pipe (opening it for reading blocks a thread of
 * libuv's pool until a writer comes) and a link to `/dev/zero` (endless). `release()` opens every pipe made
 * for writing and closes it, so a reader blocked on one (the code before the fix) ends, and the test process can exit.
 */
export class HostileFiles {
    protected readonly pipes: string[] = [];

    pipe(file: string): string {
        fs.rmSync(file, { force: true });
        execFileSync('mkfifo', [file]);
        this.pipes.push(file);
        return file;
    }

    linkToDevZero(file: string): string {
        fs.rmSync(file, { force: true });
        fs.symlinkSync('/dev/zero', file);
        return file;
    }

    release(): void {
        for (const pipe of this.pipes.splice(0)) {
            try {
                // Without a reader this fails (ENXIO): nothing to release.
                fs.closeSync(fs.openSync(pipe, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
            } catch {
                // no reader
            }
        }
    }
}

/** Resolves with what `work` resolves with, or fails the test when it takes longer than `ms`. */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms));
    try {
        return await Promise.race([work, late]);
    } finally {
        clearTimeout(timer);
    }
}

/** The process still serves: an unrelated read of `file` through libuv's pool completes within a second. */
export async function expectStillServing(file: string): Promise<void> {
    expect((await within(1000, 'an unrelated file read', fs.promises.readFile(file))).length).to.be.greaterThan(0);
}
