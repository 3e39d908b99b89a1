import * as path from 'path';
import { CLAUDE_BIN, CLAUDE_INTERACTIVE_COMMAND, prepareClaudeCode } from '../clis/claude-code-setup';
import { AnthropicRequest, MockAnthropicApi, MockAnthropicTurn } from '../mocks/mock-anthropic-api';
import { createSandbox, createWorkspace, Sandbox } from './sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';
import { TmuxTerminal } from '../hosts/tmux-terminal';

/**
 * For a `describe` block: a sandbox with a workspace, a local mock of the Anthropic Messages API
 * answering the main conversation with `script`, a Theia backend and window with a terminal, and
 * the real `claude` started in a pty with that terminal's environment. Created before the block and
 * stopped after it by the mocha hooks {@link ClaudeCodeTestbed.install} registers.
 */
export class ClaudeCodeTestbed {
    sandbox: Sandbox;
    workspace: string;
    backend: TheiaBackend;
    window: TheiaWindow;
    api: MockAnthropicApi;
    terminal: TmuxTerminal;
    /** The environment of the window's terminal, which claude was started with. */
    terminalEnv: Record<string, string>;
    /** How the model answers the main conversation (side requests get a harmless answer). */
    script: (request: AnthropicRequest) => MockAnthropicTurn = () => ({ text: 'OK.' });

    static install(files: Record<string, string>): ClaudeCodeTestbed {
        const bed = new ClaudeCodeTestbed();
        before(async () => {
            bed.api = new MockAnthropicApi(request => MockAnthropicApi.isMainConversation(request) ? bed.script(request) : MockAnthropicApi.sideAnswer(request));
            bed.sandbox = createSandbox();
            bed.workspace = createWorkspace(bed.sandbox, 'project', files);
            prepareClaudeCode(bed.sandbox, await bed.api.start(), bed.workspace);
            bed.backend = new TheiaBackend(bed.sandbox, bed.workspace);
            await bed.backend.start();
            bed.window = await TheiaWindow.open(bed.sandbox, bed.backend.url);
            await bed.window.openTerminal();
            bed.terminalEnv = await bed.window.terminalEnvironment(bed.workspace);
            bed.terminal = new TmuxTerminal(bed.sandbox.root, 'claude');
            // A login shell resets PATH from /etc/profile: start the installed binary by its path.
            bed.terminal.start([CLAUDE_BIN, ...CLAUDE_INTERACTIVE_COMMAND.slice(1)], bed.terminalEnv, bed.workspace);
        });
        after(async () => {
            bed.terminal?.kill();
            await bed.window?.close();
            await bed.backend?.stop();
            await bed.api?.stop();
            bed.sandbox?.dispose();
        });
        return bed;
    }

    /** The lock file claude finds this window by. */
    get lockFile(): string {
        return path.join(this.sandbox.home, '.claude', 'ide', `${this.terminalEnv.CLAUDE_CODE_SSE_PORT}.lock`);
    }

    /** `error` with the terminal's screen and the backend's Claude, diff and session lines. */
    explain(error: Error): Error {
        const log = this.backend.log.split('\n').filter(line => /Claude|Diff|session/i.test(line)).slice(-30).join('\n');
        return new Error(`${error.message}\n--- terminal ---\n${this.terminal.screen()}\n--- backend ---\n${log}`);
    }
}
