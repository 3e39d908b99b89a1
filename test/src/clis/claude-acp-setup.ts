import * as fs from 'fs';
import * as path from 'path';
import { CLAUDE_BIN, FAKE_ANTHROPIC_API_KEY } from './claude-code-setup';
import { Sandbox } from '../support/sandbox';
import { clientPath } from './client-packages';

const CLAUDE_ACP_BIN = clientPath('.bin', 'claude-agent-acp');

/**
 * Makes the sandbox's backend run Claude Code offline as an ACP agent through the published adapter:
 * `claude-agent-acp` on its PATH (as after `npm install -g @agentclientprotocol/claude-agent-acp`), driving
 * our pinned `claude` (`CLAUDE_CODE_EXECUTABLE`; else the adapter runs the agent SDK's bundled
 * cli.js) with the Messages API at the local mock. No `.claude.json` is needed: the SDK mode has no
 * onboarding or trust dialogs. Without a key the first prompt fails with ACP's auth_required.
 */
export function prepareClaudeAcp(sandbox: Sandbox, mockUrl: string): void {
    const bin = path.join(sandbox.root, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    if (!fs.existsSync(path.join(bin, 'claude-agent-acp'))) {
        fs.symlinkSync(fs.realpathSync(CLAUDE_ACP_BIN), path.join(bin, 'claude-agent-acp'));
    }
    Object.assign(sandbox.env, {
        PATH: `${bin}:${sandbox.env.PATH}`,
        CLAUDE_CODE_EXECUTABLE: fs.realpathSync(CLAUDE_BIN),
        ANTHROPIC_BASE_URL: mockUrl,
        ANTHROPIC_API_KEY: FAKE_ANTHROPIC_API_KEY,
        DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1'
    });
}
