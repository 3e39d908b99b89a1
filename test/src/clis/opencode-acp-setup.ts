import * as fs from 'fs';
import * as path from 'path';
import { Sandbox } from '../support/sandbox';
import { clientPath } from './client-packages';

/**
 * `opencode` as `npm install -g opencode-ai` puts it on the PATH: the package's postinstall replaces
 * `bin/opencode.exe` with the native binary of the platform package (`opencode-linux-x64`).
 */
const OPENCODE_BIN = clientPath('.bin', 'opencode');

/** The provider and model of the mock, as OpenCode names the model: `<provider>/<model>`. */
export const OPENCODE_MOCK_PROVIDER = 'mock';
export const OPENCODE_MOCK_MODEL = 'mock-model';

/** A fake key: the mock does not check it; OpenCode sends it as the bearer token. */
export const FAKE_OPENCODE_API_KEY = 'sk-mock-opencode-0000000000000000';

/**
 * Makes the sandbox's backend run the real OpenCode offline as an ACP agent (`opencode acp`): `opencode`
 * on its PATH, and a config file (`OPENCODE_CONFIG`, in the sandbox) with one provider, the local mock
 * of the OpenAI chat completions API (`mockUrl` is `MockOpenAiApi.url`, without `/v1`). Start the mock
 * first: OpenCode retries a refused request without end. Why each setting:
 * - `provider.mock` through `@ai-sdk/openai-compatible` (bundled in the binary, nothing is installed),
 *   `enabled_providers: ['mock']`: no other provider (and no key of the user's) is looked at.
 * - `model` and `small_model` both the mock's: the small model writes a session's title (a request
 *   without tools on the first prompt; a test's script must answer it too).
 * - `permission: {edit: 'ask', bash: 'ask'}`: every write asks with `session/request_permission`
 *   (with the diff), as in OpenCode's default; said here so a changed default does not go unnoticed.
 * - `autoupdate: false`, `share: 'disabled'`, `lsp: false`, `formatter: false`: nothing is
 *   downloaded, shared or run besides the tools.
 * Variables:
 * - `OPENCODE_DISABLE_MODELS_FETCH=1` (required): else it fetches models.opencode.ai's catalogue at start.
 * - `OPENCODE_DISABLE_AUTOUPDATE`, `OPENCODE_DISABLE_LSP_DOWNLOAD`, `OPENCODE_DISABLE_SHARE`: as the
 *   config says, also for what reads the variables only.
 * - `OPENCODE_DISABLE_DEFAULT_PLUGINS=1`: its built-in plugins are not loaded; the mock provider needs none.
 * - `OPENCODE_DISABLE_CLAUDE_CODE=1`, `OPENCODE_DISABLE_EXTERNAL_SKILLS=1`: the prompt is OpenCode's
 *   own, not extended with Claude Code's `CLAUDE.md` or the skills under `~/.claude/` and `~/.agents/`.
 * Files: OpenCode installs `@opencode-ai/plugin` with npm into its config folder
 * (`$XDG_CONFIG_HOME/opencode`) in the background unless `node_modules` is there and `package-lock.json`'s
 * root lists what `package.json` asks for: both are written, so nothing is installed (from the internet).
 */
export function prepareOpenCodeAcp(sandbox: Sandbox, mockUrl: string): void {
    const configFile = path.join(sandbox.root, 'opencode.json');
    fs.writeFileSync(configFile, JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        enabled_providers: [OPENCODE_MOCK_PROVIDER],
        provider: {
            [OPENCODE_MOCK_PROVIDER]: {
                npm: '@ai-sdk/openai-compatible',
                name: 'Mock',
                options: { baseURL: `${mockUrl}/v1`, apiKey: FAKE_OPENCODE_API_KEY },
                models: { [OPENCODE_MOCK_MODEL]: { name: 'Mock Model', tool_call: true, limit: { context: 128000, output: 4096 } } }
            }
        },
        model: `${OPENCODE_MOCK_PROVIDER}/${OPENCODE_MOCK_MODEL}`,
        small_model: `${OPENCODE_MOCK_PROVIDER}/${OPENCODE_MOCK_MODEL}`,
        autoupdate: false,
        share: 'disabled',
        lsp: false,
        formatter: false,
        permission: { edit: 'ask', bash: 'ask' }
    }, undefined, 2));
    const configHome = path.join(sandbox.env.XDG_CONFIG_HOME ?? path.join(sandbox.home, '.config'), 'opencode');
    fs.mkdirSync(path.join(configHome, 'node_modules'), { recursive: true });
    const dependencies = { '@opencode-ai/plugin': '*' };
    fs.writeFileSync(path.join(configHome, 'package.json'), JSON.stringify({ dependencies }));
    fs.writeFileSync(path.join(configHome, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }));
    const bin = path.join(sandbox.root, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    if (!fs.existsSync(path.join(bin, 'opencode'))) {
        fs.symlinkSync(fs.realpathSync(OPENCODE_BIN), path.join(bin, 'opencode'));
    }
    Object.assign(sandbox.env, {
        PATH: `${bin}:${sandbox.env.PATH}`,
        OPENCODE_CONFIG: configFile,
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
        OPENCODE_DISABLE_EXTERNAL_SKILLS: '1'
    });
}
