import { ChildProcess } from 'child_process';
import { signalProcessGroup, spawnInOwnGroup } from '@theia-cli-companion/cli-process/lib/node';
import { BoundedLine, BoundedLineSplitter, CLI_CATALOGUE, installCommandOf } from '@theia-cli-companion/cli-process/lib/common';
import { ExitFacts, RetryNotice, TaskOutcome, classifyExit, parseRetryNotice } from '../common/headless-exit';
import { StreamJsonLine, StreamJsonLineParser } from '../common/stream-json-line-parser';

export interface HeadlessProcessOptions {
    /** The executable, already resolved (an absolute path, or a name on `env.PATH`). */
    command: string;
    args: string[];
    cwd: string;
    env: NodeJS.ProcessEnv;
    /** How long a cancelled run gets to end on SIGTERM before its process group gets SIGKILL. */
    killGraceMs?: number;
}

export interface HeadlessProcessListener {
    /** Every stdout line, classified. */
    line(line: StreamJsonLine): void;
    /** Every stderr line, for the log: never an event. */
    stderr(line: string): void;
    /** The CLI said on stderr that it is retrying a failed request. */
    retry(notice: RetryNotice): void;
    /** Once, after stdout has been read to the end. */
    exit(outcome: TaskOutcome, facts: ExitFacts): void;
}

const STDERR_TAIL_LINES = 20;
/** What is kept of one stderr line; the rest of a longer one is dropped unread. */
export const MAX_STDERR_LINE_LENGTH = 64 * 1024;

/**
 * One `gemini -p … --output-format stream-json` run. The CLI runs in a process group of its own
 * (it relaunches itself as a child), so cancelling ends the whole tree, not just the first process.
 */
export class HeadlessGeminiProcess {
    protected readonly child: ChildProcess;
    protected readonly parser = new StreamJsonLineParser();
    protected readonly stderrTail: string[] = [];
    protected readonly stderrLines = new BoundedLineSplitter(MAX_STDERR_LINE_LENGTH);
    protected result?: ExitFacts['result'];
    protected lastErrorNotice?: string;
    protected cancelled = false;
    protected finished = false;
    protected killTimer?: NodeJS.Timeout;

    constructor(protected readonly options: HeadlessProcessOptions, protected readonly listener: HeadlessProcessListener) {
        this.child = spawnInOwnGroup(options.command, options.args, {
            cwd: options.cwd,
            env: options.env,
            // The CLI appends stdin to the prompt: give it none.
            stdio: ['ignore', 'pipe', 'pipe']
        });
        this.child.stdout!.on('data', (chunk: Buffer) => this.onLines(this.parser.push(chunk)));
        this.child.stderr!.on('data', (chunk: Buffer) => this.onStderr(this.stderrLines.push(chunk)));
        this.child.on('error', error => this.finish({ code: null, signal: null, spawnError: error }));
        this.child.on('close', (code, signal) => this.finish({ code, signal }));
    }

    get pid(): number | undefined {
        return this.child.pid;
    }

    get running(): boolean {
        return !this.finished;
    }

    /** Ends the run and everything it started: SIGTERM to the group, SIGKILL after the grace period. */
    cancel(): void {
        if (this.finished) {
            return;
        }
        this.cancelled = true;
        this.signalGroup('SIGTERM');
        this.killTimer = setTimeout(() => this.signalGroup('SIGKILL'), this.options.killGraceMs ?? 3000);
        this.killTimer.unref();
    }

    protected signalGroup(signal: NodeJS.Signals): void {
        signalProcessGroup(this.child, signal);
    }

    protected onLines(lines: StreamJsonLine[]): void {
        for (const line of lines) {
            if (line.kind === 'event' && line.event.type === 'result') {
                this.result = { status: line.event.status, error: line.event.error };
            } else if (line.kind === 'event' && line.event.type === 'error' && line.event.severity === 'error') {
                this.lastErrorNotice = line.event.message;
            }
            this.listener.line(line);
        }
    }

    protected onStderr(lines: BoundedLine[]): void {
        lines.forEach(({ text, cut }) => this.onStderrLine(cut ? `${text} [line cut at ${MAX_STDERR_LINE_LENGTH} characters]` : text));
    }

    protected onStderrLine(line: string): void {
        this.stderrTail.push(line);
        if (this.stderrTail.length > STDERR_TAIL_LINES) {
            this.stderrTail.shift();
        }
        this.listener.stderr(line);
        const retry = parseRetryNotice(line);
        if (retry) {
            this.listener.retry(retry);
        }
    }

    protected finish(end: { code: number | null; signal: string | null; spawnError?: NodeJS.ErrnoException }): void {
        if (this.finished) {
            return;
        }
        this.finished = true;
        clearTimeout(this.killTimer);
        this.onLines(this.parser.end());
        this.onStderr(this.stderrLines.end());
        // Whatever the first process left behind (its relaunched child) goes with it.
        this.signalGroup('SIGKILL');
        const facts: ExitFacts = {
            code: end.code, signal: end.signal, cancelled: this.cancelled, result: this.result, lastErrorNotice: this.lastErrorNotice, stderrTail: [...this.stderrTail]
        };
        const outcome: TaskOutcome = end.spawnError
            ? end.spawnError.code === 'ENOENT'
                ? {
                    kind: 'not-installed',
                    message: `${CLI_CATALOGUE.gemini.displayName} was not found (${this.options.command}). `
                        + `Install it with \`${installCommandOf(CLI_CATALOGUE.gemini)}\`, or set the command in the preferences.`
                }
                : { kind: 'crashed', message: `Gemini CLI could not be started: ${end.spawnError.message}` }
            : classifyExit(facts);
        this.listener.exit(outcome, facts);
    }
}
