import * as fs from 'fs';
import * as path from 'path';
import { Sandbox } from '../support/sandbox';
import { clientPath } from './client-packages';

/** The real Claude Code CLI (a native binary) installed as a devDependency. */
export const CLAUDE_BIN = clientPath('.bin', 'claude');

/** A fake key: the mock does not check it, the CLI only needs it approved in `.claude.json`. */
export const FAKE_ANTHROPIC_API_KEY = 'sk-ant-api03-mock-0000000000000000000000000000000000000000';

/**
 * Starts Claude Code interactively with edits going through permission prompts (the IDE gets
 * `openDiff` for each Edit/Write).
 */
export const CLAUDE_INTERACTIVE_COMMAND = ['claude', '--permission-mode', 'default'];

/** Claude Code with no update, telemetry or other traffic of its own: the tests have no network but loopback. */
export const CLAUDE_OFFLINE_ENV = {
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1'
} as const;

/**
 * Makes the sandbox run the real Claude Code CLI offline: `claude` on its PATH (as after
 * `npm install -g @anthropic-ai/claude-code`), a `.claude.json` that skips onboarding, the theme
 * picker, the API-key approval and the folder-trust dialog for `workspaceDir`, and the Messages
 * API at the local mock. Returns the config dir (`CLAUDE_CONFIG_DIR`, where `ide/<port>.lock` goes).
 */
export function prepareClaudeCode(sandbox: Sandbox, mockUrl: string, workspaceDir: string): string {
    const configDir = sandbox.env.CLAUDE_CONFIG_DIR ?? path.join(sandbox.home, '.claude');
    fs.mkdirSync(path.join(configDir, 'ide'), { recursive: true });
    const config = claudeCodeConfig(workspaceDir);
    fs.writeFileSync(path.join(configDir, '.claude.json'), config.globalConfig);
    fs.writeFileSync(path.join(configDir, 'settings.json'), config.settings);
    const bin = path.join(sandbox.root, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    if (!fs.existsSync(path.join(bin, 'claude'))) {
        fs.symlinkSync(fs.realpathSync(CLAUDE_BIN), path.join(bin, 'claude'));
    }
    Object.assign(sandbox.env, {
        PATH: `${bin}:${sandbox.env.PATH}`,
        ANTHROPIC_API_KEY: FAKE_ANTHROPIC_API_KEY,
        ANTHROPIC_BASE_URL: mockUrl,
        ...CLAUDE_OFFLINE_ENV,
        TERM: 'xterm-256color'
    });
    return configDir;
}

/**
 * What makes Claude Code start straight at its prompt in `workspaceDir`: its global config (`.claude.json`:
 * onboarding, theme, the API key approved, the folder trusted) and `settings.json`.
 */
export function claudeCodeConfig(workspaceDir: string): { globalConfig: string; settings: string } {
    const project = {
        allowedTools: [],
        hasTrustDialogAccepted: true,
        hasCompletedProjectOnboarding: true,
        projectOnboardingSeenCount: 1,
        hasClaudeMdExternalIncludesApproved: false,
        hasClaudeMdExternalIncludesWarningShown: true
    };
    return {
        globalConfig: JSON.stringify({
            numStartups: 1,
            firstStartTime: new Date().toISOString(),
            hasCompletedOnboarding: true,
            lastOnboardingVersion: '2.1.332',
            theme: 'dark',
            autoUpdates: false,
            hasIdeOnboardingBeenShown: { vscode: true },
            hasSeenTasksHint: true,
            // Else a "Try the new fullscreen renderer?" dialog takes the first keys typed.
            fullscreenUpsellSeenCount: 3,
            bypassPermissionsModeAccepted: false,
            customApiKeyResponses: { approved: [FAKE_ANTHROPIC_API_KEY.slice(-20)], rejected: [] },
            projects: { [workspaceDir]: project }
        }, undefined, 2),
        settings: JSON.stringify({
            autoUpdates: false,
            // The classic renderer: no fullscreen upsell, and the screen reads like a plain terminal.
            tui: 'default',
            includeCoAuthoredBy: false,
            env: {}
        }, undefined, 2)
    };
}
