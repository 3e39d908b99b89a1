import * as fs from 'fs';
import * as path from 'path';
import { Sandbox } from '../support/sandbox';
import { clientPath } from './client-packages';

const CODEX_ACP_BIN = clientPath('.bin', 'codex-acp');

/**
 * The model Codex asks the mock for. It must be one Codex knows: for an unknown name codex-acp
 * sends "Model metadata for `…` not found. Defaulting to fallback metadata; …" as an agent message
 * at the start of every turn, which a test would see in the chat.
 */
export const CODEX_MOCK_MODEL = 'gpt-5.5';

/** The variable the mock provider reads its key from (the mock does not check the key). */
export const CODEX_MOCK_KEY_VARIABLE = 'MOCK_API_KEY';
export const FAKE_CODEX_API_KEY = 'sk-mock-codex-0000000000000000';

/**
 * The adapter's modes (its `session/new` modes and 'mode' config option), each a Codex approval
 * policy and sandbox: 'read-only' asks with `session/request_permission` before every edit;
 * 'agent-full-access' writes without asking. (Its default, 'agent' ("Auto review"), and
 * 'workspace-write' run edits in Codex's Linux sandbox, which needs bubblewrap.)
 */
export type CodexAcpMode = 'read-only' | 'agent-full-access';

export interface CodexAcpOptions {
    /** Default 'read-only': the mode Codex starts in, as its `sandbox_mode` in config.toml. */
    mode?: CodexAcpMode;
    /**
     * Default true. Without the key `session/new` still succeeds, but every `session/prompt` fails
     * with -32603 "Internal error", data.message "Missing environment variable: `MOCK_API_KEY`.".
     */
    withApiKey?: boolean;
}

/**
 * Makes the sandbox's backend run the real Codex offline as an ACP agent through the ACP adapter:
 * `codex-acp` on its PATH (as after `npm install -g @agentclientprotocol/codex-acp`) and
 * `$CODEX_HOME/config.toml` (CODEX_HOME in the sandbox) with a model provider at the local mock
 * (`mockUrl` is `MockOpenAiResponsesApi.url`, without `/v1`). Why each setting:
 * - `model_provider = "mock"` with `wire_api = "responses"`: a custom provider reads its key from
 *   `env_key` and only posts to `<base_url>/responses`; the built-in OpenAI one (`openai_base_url`)
 *   first tries WebSockets and wants `OPENAI_API_KEY` or a login.
 * - `request_max_retries` / `stream_max_retries = 0`: a failing mock fails the turn at once
 *   instead of after Codex's backoff.
 * - `model`: see `CODEX_MOCK_MODEL`.
 * - `sandbox_mode`: see `CodexAcpOptions.mode`. No `approval_policy`: Codex 0.166 refuses
 *   "untrusted" ("no longer supported") and the adapter's modes set the policy themselves.
 * - `check_for_update_on_startup`, `[analytics]`, `[feedback]` off: nothing else calls out.
 * - `[projects."<projectDir>"] trust_level = "trusted"`: what Codex records once the user trusted
 *   the folder, so the run matches a set-up user's and Codex asks nothing about the folder.
 *
 * The adapter does not exit when its stdin ends: stop it with SIGTERM to its process group (the
 * `codex-acp` on PATH is a node script that runs Codex's app server, a native binary, as a child).
 */
export function prepareCodexAcp(sandbox: Sandbox, mockUrl: string, projectDir: string, options: CodexAcpOptions = {}): void {
    const codexHome = sandbox.env.CODEX_HOME ?? path.join(sandbox.home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    // JSON strings are valid TOML basic strings (same escapes), so paths and URLs are quoted with JSON.stringify.
    const toml = (value: string) => JSON.stringify(value);
    fs.writeFileSync(path.join(codexHome, 'config.toml'), [
        'model_provider = "mock"',
        `model = ${toml(CODEX_MOCK_MODEL)}`,
        `sandbox_mode = ${toml(options.mode === 'agent-full-access' ? 'danger-full-access' : 'read-only')}`,
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
