import * as fs from 'fs';
import * as path from 'path';
import { Sandbox } from './sandbox';
import { REPO_ROOT } from './theia-backend';

const CODEX_ACP_BIN = path.join(REPO_ROOT, 'node_modules', '.bin', 'codex-acp');

/**
 * The model Codex asks the mock for. It must be one Codex knows: for an unknown name codex-acp
 * sends "Model metadata for `…` not found. Defaulting to fallback metadata; …" as an agent message
 * at the start of every turn, which a test would see in the chat.
 */
export const CODEX_MOCK_MODEL = 'gpt-5.4-mini';

/** The variable the mock provider reads its key from (the mock does not check the key). */
export const CODEX_MOCK_KEY_VARIABLE = 'MOCK_API_KEY';
export const FAKE_CODEX_API_KEY = 'sk-mock-codex-0000000000000000';

/** Codex's approval policies (`approval_policy` in config.toml). */
export type CodexApprovalPolicy = 'untrusted' | 'on-request' | 'on-failure' | 'never';

export interface CodexAcpOptions {
    /**
     * Default 'untrusted': every edit is asked for with `session/request_permission` (options
     * `approved` / `abort`) before Codex writes it; 'never' writes without asking.
     * codex-acp offers its approval presets (`modes` and a 'mode' config option in `session/new`)
     * only when policy and sandbox match one: here only 'never' does ('full-access'). Otherwise
     * `session/new` has no `modes`, and its config options are just 'model' and 'reasoning_effort'.
     */
    approvalPolicy?: CodexApprovalPolicy;
    /**
     * Default true. Without the key `session/new` still succeeds, but every `session/prompt` fails
     * with -32603 "Internal error", data.message "Missing environment variable: `MOCK_API_KEY`.".
     */
    withApiKey?: boolean;
}

/**
 * Makes the sandbox's backend run the real Codex offline as an ACP agent through Zed's adapter:
 * `codex-acp` on its PATH (as after `npm install -g @zed-industries/codex-acp`) and
 * `$CODEX_HOME/config.toml` (CODEX_HOME in the sandbox) with a model provider at the local mock
 * (`mockUrl` is `MockOpenAiResponsesApi.url`, without `/v1`). Why each setting:
 * - `model_provider = "mock"` with `wire_api = "responses"`: a custom provider reads its key from
 *   `env_key` and only posts to `<base_url>/responses`; the built-in OpenAI one (`openai_base_url`)
 *   first tries WebSockets and wants `OPENAI_API_KEY` or a login.
 * - `request_max_retries` / `stream_max_retries = 0`: a failing mock fails the turn at once
 *   instead of after Codex's backoff.
 * - `model`: see `CODEX_MOCK_MODEL`.
 * - `approval_policy`: see `CodexAcpOptions.approvalPolicy`.
 * - `sandbox_mode = "danger-full-access"`: Codex's other modes run file operations through its
 *   Linux sandbox, which needs bubblewrap (`bwrap`), not installed here: apply_patch then fails
 *   with "bubblewrap is unavailable". The sandbox directory tree is the test's confinement.
 * - `check_for_update_on_startup`, `[analytics]`, `[feedback]` off: nothing else calls out.
 * - `[projects."<projectDir>"] trust_level = "trusted"`: what Codex records once the user trusted
 *   the folder, so the run matches a set-up user's and Codex asks nothing about the folder.
 *
 * The adapter does not exit when its stdin ends: stop it with SIGTERM to its process group (the
 * `codex-acp` on PATH is a node wrapper that runs the native binary as a child).
 */
export function prepareCodexAcp(sandbox: Sandbox, mockUrl: string, projectDir: string, options: CodexAcpOptions = {}): void {
    const codexHome = sandbox.env.CODEX_HOME ?? path.join(sandbox.home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    // JSON strings are valid TOML basic strings (same escapes), so paths and URLs are quoted with JSON.stringify.
    const toml = (value: string) => JSON.stringify(value);
    fs.writeFileSync(path.join(codexHome, 'config.toml'), [
        'model_provider = "mock"',
        `model = ${toml(CODEX_MOCK_MODEL)}`,
        `approval_policy = ${toml(options.approvalPolicy ?? 'untrusted')}`,
        'sandbox_mode = "danger-full-access"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.mock]',
        'name = "Mock"',
        `base_url = ${toml(`${mockUrl}/v1`)}`,
        'wire_api = "responses"',
        `env_key = ${toml(CODEX_MOCK_KEY_VARIABLE)}`,
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[feedback]',
        'enabled = false',
        '',
        `[projects.${toml(projectDir)}]`,
        'trust_level = "trusted"',
        ''
    ].join('\n'));
    const bin = path.join(sandbox.root, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    if (!fs.existsSync(path.join(bin, 'codex-acp'))) {
        // The wrapper resolves its native binary's package from where it really is.
        fs.symlinkSync(fs.realpathSync(CODEX_ACP_BIN), path.join(bin, 'codex-acp'));
    }
    Object.assign(sandbox.env, {
        PATH: `${bin}:${sandbox.env.PATH}`,
        CODEX_HOME: codexHome,
        ...(options.withApiKey === false ? {} : { [CODEX_MOCK_KEY_VARIABLE]: FAKE_CODEX_API_KEY })
    });
}
