import { execFile } from 'child_process';

export interface RunFileOptions {
    /** What runs, for the error: `npm install @google/gemini-cli@0.27.3`. */
    readonly what: string;
    readonly cwd: string;
    /** The child's whole environment: nothing is inherited that the caller did not pass. */
    readonly env: NodeJS.ProcessEnv;
    readonly timeoutMs: number;
    readonly signal?: AbortSignal;
}

/**
 * Runs a program without a shell (arguments reach it as they are; nothing is interpreted) and
 * answers its stdout. A failure says what ran, how it ended and the end of what it wrote to stderr,
 * which is where npm and tar say why.
 */
export function runFile(command: string, args: readonly string[], options: RunFileOptions): Promise<string> {
    return new Promise((resolve, reject) => {
        execFile(command, [...args], {
            cwd: options.cwd, env: options.env, timeout: options.timeoutMs, signal: options.signal,
            maxBuffer: 16 * 1024 * 1024, windowsHide: true, encoding: 'utf8'
        }, (error, stdout, stderr) => {
            if (!error) {
                resolve(stdout);
                return;
            }
            const failure = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: unknown };
            const how = failure.code === 'ENOENT' ? `${command} was not found`
                : failure.code === 'ABORT_ERR' ? 'it was cancelled'
                    : failure.killed && failure.signal ? `it was stopped after ${Math.round(options.timeoutMs / 1000)} s`
                        : typeof failure.code === 'number' ? `it exited with code ${failure.code}` : failure.message;
            const tail = stderr.trim().split('\n').slice(-12).join('\n');
            reject(new Error(`${options.what} failed: ${how}${tail ? `:\n${tail}` : ''}`));
        });
    });
}
