/**
 * Gemini CLI's exit codes (`FatalError` subclasses in @google/gemini-cli-core 0.61.0,
 * packages/core/src/utils/errors.ts). Exits 41 and 55 print nothing on stdout.
 */
export const GEMINI_EXIT_CODES = {
    success: 0,
    /** A run error; a `result` with status `error` was printed. */
    error: 1,
    noAuth: 41,
    input: 42,
    sandbox: 44,
    config: 52,
    turnLimit: 53,
    toolExecution: 54,
    untrustedFolder: 55,
    cancelled: 130
} as const;

/** Derived: why a task ended, for the user. */
export type TaskOutcomeKind =
    | 'succeeded'
    /** The run ended with an error `result` (or a known fatal exit with one). */
    | 'failed'
    | 'cancelled'
    | 'no-auth'
    | 'untrusted-folder'
    | 'not-installed'
    /** Ended without a `result`: killed, crashed, or an exit code we do not know. */
    | 'crashed';

export interface TaskOutcome {
    kind: TaskOutcomeKind;
    /** What went wrong, in words; empty for `succeeded`. */
    message: string;
}

export interface ExitFacts {
    code: number | null;
    signal: string | null;
    /** The user (or the IDE closing) asked for the task to stop. */
    cancelled: boolean;
    /** The `result` event, if one came. */
    result?: { status: 'success' | 'error'; error?: { type: string; message: string } };
    /** The last error-severity `error` event: the reason an error `result` without `error` had. */
    lastErrorNotice?: string;
    /** The last lines of stderr (never parsed as events; used only to explain an exit). */
    stderrTail: string[];
}

/** Maps how the process ended to what the user is told. Exit codes are upstream facts; the wording is ours. */
export function classifyExit(facts: ExitFacts): TaskOutcome {
    const stderr = meaningfulStderr(facts.stderrTail);
    if (facts.cancelled) {
        return { kind: 'cancelled', message: 'Cancelled.' };
    }
    if (facts.code === GEMINI_EXIT_CODES.noAuth) {
        return {
            kind: 'no-auth', message: 'Gemini CLI has no authentication configured' + (stderr ? ` (${stderr})` : '') +
                '. Set GEMINI_API_KEY for the IDE, or run `gemini` once in a terminal and sign in; then run the task again.'
        };
    }
    if (facts.code === GEMINI_EXIT_CODES.untrustedFolder) {
        return {
            kind: 'untrusted-folder', message: 'Gemini CLI does not trust this folder, so it will not run headless here. ' +
                'Run the task again trusting the folder (`--skip-trust`), or trust it in Gemini CLI.'
        };
    }
    if (facts.result?.status === 'success' && (facts.code === 0 || facts.code === null)) {
        return { kind: 'succeeded', message: '' };
    }
    if (facts.result) {
        const reason = facts.result.error?.message ?? facts.lastErrorNotice ?? stderr ?? 'no reason given';
        return { kind: 'failed', message: `Gemini CLI reported an error: ${reason}` };
    }
    if (facts.signal) {
        return { kind: 'crashed', message: `Gemini CLI was ended by ${facts.signal} before it finished.` + (stderr ? ` Last output: ${stderr}` : '') };
    }
    return {
        kind: 'crashed', message: `Gemini CLI exited with code ${facts.code} without a result.` + (stderr ? ` Last output: ${stderr}` : '')
    };
}

/** The last stderr lines that say something (not the CLI's cosmetic start-up chatter), joined. */
function meaningfulStderr(lines: string[]): string | undefined {
    const chatter = [/^Warning: 256-color support/, /^Ripgrep is not available/, /^\[STARTUP\]/, /^YOLO mode is enabled/, /^at .*:\d+:\d+\)?$/];

    const plain = lines.map(line => line.replace(/\u001b\[[0-9;]*m/g, '').trim()).filter(line => line && !chatter.some(pattern => pattern.test(line)));
    return plain.length ? plain.slice(-3).join(' ') : undefined;
}

/** A request Gemini CLI is retrying, as its stderr says: `Attempt 2 failed. Retrying with backoff... Error: …`. */
export interface RetryNotice {
    attempt: number;
    reason: string;
}

// The four forms in @google/gemini-cli-core 0.61.0's retryWithBackoff: `failed.`, `failed with status N.`,
// `failed with 429 error (…).` / `failed with 5xx error.`, and `failed: MESSAGE. Retrying after Nms...`.
const RETRY_LINE = /^Attempt (\d+) failed(?::\s*(.*?)|\s+with\s+(.*?))?\. Retrying (?:with backoff|after \d+ms)\.\.\.\s*(.*)$/;

/** Recognises the CLI's retry line on stderr; undefined for any other line. */
export function parseRetryNotice(stderrLine: string): RetryNotice | undefined {
    const match = RETRY_LINE.exec(stderrLine.trim());
    if (!match) {
        return undefined;
    }
    const reason = [match[2], match[3], match[4]].filter(Boolean).join(': ');
    return { attempt: Number(match[1]), reason: reason || 'request failed' };
}
