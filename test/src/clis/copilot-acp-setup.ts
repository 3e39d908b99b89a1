import * as fs from 'fs';
import * as path from 'path';
import { Sandbox } from '../support/sandbox';
import { clientPath } from './client-packages';

/**
 * `copilot` as `npm install -g @github/copilot` puts it on the PATH: a node script that runs the native
 * binary of the platform package (`@github/copilot-linux-x64`) as its child, with the same stdio.
 */
const COPILOT_BIN = clientPath('.bin', 'copilot');

/** The model Copilot asks the mock for (any name: a BYOK provider's models are not checked). */
export const COPILOT_MOCK_MODEL = 'mock-model';

/** A fake key: the mock does not check it; Copilot sends it as the bearer token. */
export const FAKE_COPILOT_API_KEY = 'sk-mock-copilot-0000000000000000';

/**
 * Makes the sandbox's backend run the real GitHub Copilot CLI offline as an ACP agent (`copilot --acp`):
 * `copilot` on its PATH, and variables that give it its own model provider ("bring your own key"), the
 * local mock of the OpenAI chat completions API (`mockUrl` is `MockOpenAiApi.url`, without `/v1`),
 * instead of GitHub's Copilot service and its sign-in. Why each variable:
 * - `COPILOT_PROVIDER_BASE_URL`, `COPILOT_PROVIDER_TYPE=openai`, `COPILOT_PROVIDER_API_KEY`, `COPILOT_MODEL`:
 *   the provider and model; with them `session/new` needs no GitHub sign-in (its `authMethods` still
 *   offer `copilot-login`, which the chat never has to use).
 * - `COPILOT_OFFLINE=true`: its offline mode: nothing that needs GitHub (sign-in, connectors, pull
 *   requests, plugin downloads) and no update.
 * - `COPILOT_AUTO_UPDATE=false`: what `--no-auto-update` says, for a CLI started as the built-in agent
 *   starts it (`copilot --acp`, no other argument).
 * - `COPILOT_HOME` in the sandbox: its config, sessions and logs.
 * - No `GH_TOKEN`, `GITHUB_TOKEN` or `COPILOT_GITHUB_TOKEN`: a token would sign it in to GitHub.
 * On its first start it unpacks its JavaScript (~235 MB) into `$XDG_CACHE_HOME/copilot/pkg` (in the
 * sandbox; under a second). In the default mode (*Agent*, *Allow All* off) every edit asks with
 * `session/request_permission`; it writes the file itself once allowed (no `fs/write_text_file`).
 */
export function prepareCopilotAcp(sandbox: Sandbox, mockUrl: string): void {
    const copilotHome = path.join(sandbox.home, '.copilot');
    fs.mkdirSync(copilotHome, { recursive: true });
    const bin = path.join(sandbox.root, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    if (!fs.existsSync(path.join(bin, 'copilot'))) {
        fs.symlinkSync(fs.realpathSync(COPILOT_BIN), path.join(bin, 'copilot'));
    }
    for (const token of ['GH_TOKEN', 'GITHUB_TOKEN', 'COPILOT_GITHUB_TOKEN']) {
        delete sandbox.env[token];
    }
    Object.assign(sandbox.env, {
        PATH: `${bin}:${sandbox.env.PATH}`,
        COPILOT_HOME: copilotHome,
        COPILOT_OFFLINE: 'true',
        COPILOT_AUTO_UPDATE: 'false',
        COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_PROVIDER_API_KEY: FAKE_COPILOT_API_KEY,
        COPILOT_MODEL: COPILOT_MOCK_MODEL
    });
}
