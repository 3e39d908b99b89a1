/**
 * The spawn helper: a small Node process that runs commands for its parent (see `SpawnHelper`), so that each
 * fork copies this process's few page tables instead of the parent's. It exits when its parent goes, ending
 * what it still runs.
 */
import { ChildProcess, spawn } from 'child_process';
import { describeError } from '../common/describe-error';
import { formatZodIssues } from '../common/format-zod-issues';
import { SpawnHelperRequest, SpawnHelperRequestSchema, SpawnHelperResponse } from './spawn-helper-protocol';

const running = new Set<ChildProcess>();

function reply(response: SpawnHelperResponse): void {
    process.send?.(response);
}

function run(request: SpawnHelperRequest): void {
    const child = spawn(request.command, request.args, { cwd: request.cwd, env: request.env, stdio: ['pipe', 'pipe', 'pipe'], shell: false });
    running.add(child);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', error => {
        running.delete(child);
        reply({ id: request.id, error: describeError(error) });
    });
    child.on('close', (code, signal) => {
        running.delete(child);
        reply({ id: request.id, code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) });
    });
    child.stdin.end(request.input);
}

process.on('message', (message: unknown) => {
    const parsed = SpawnHelperRequestSchema.safeParse(message);
    if (parsed.success) {
        run(parsed.data);
    } else {
        const id = (message as { id?: unknown } | undefined)?.id;
        if (typeof id === 'number' && Number.isInteger(id) && id >= 0) {
            reply({ id, error: `not a command to run: ${formatZodIssues(parsed.error)}` });
        }
    }
});

process.on('disconnect', () => {
    running.forEach(child => child.kill('SIGKILL'));
    process.exit(0);
});
