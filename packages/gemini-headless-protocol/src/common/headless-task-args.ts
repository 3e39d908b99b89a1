/**
 * Gemini CLI's approval modes (`--approval-mode`). Headless, `default` has nothing to ask, so the
 * CLI leaves out every tool that would need approval (writes, shell): the model can only read.
 */
export const APPROVAL_MODES = ['default', 'auto_edit', 'yolo', 'plan'] as const;
export type ApprovalMode = typeof APPROVAL_MODES[number];

export interface HeadlessTaskRequest {
    prompt: string;
    approvalMode: ApprovalMode;
    /** `--model`; the CLI's configured model when absent. */
    model?: string;
    /** `--skip-trust`: trust the folder for this run only (otherwise an untrusted folder exits 55). */
    skipTrust?: boolean;
}

/** The arguments after the `gemini` command for one headless stream-json run. */
export function headlessTaskArgs(request: HeadlessTaskRequest): string[] {
    return [
        // `--prompt=…` in one argument: a prompt starting with "-" must not be read as an option.
        `--prompt=${request.prompt}`,
        '--output-format', 'stream-json',
        '--approval-mode', request.approvalMode,
        ...(request.model ? [`--model=${request.model}`] : []),
        ...(request.skipTrust ? ['--skip-trust'] : [])
    ];
}
