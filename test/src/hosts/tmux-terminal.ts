import { execFileSync } from 'child_process';
import * as path from 'path';
import { killTree, until } from '../support/processes';

/**
 * A real pseudo-terminal (tmux) running an interactive program, with its own tmux server socket
 * inside the sandbox, read with capture-pane and typed into with send-keys.
 */
export class TmuxTerminal {
    protected readonly socket: string;
    protected readonly session = 'cli';

    constructor(sandboxRoot: string, name: string) {
        this.socket = path.join(sandboxRoot, `tmux-${name}.sock`);
    }

    start(command: string[], env: NodeJS.ProcessEnv, cwd: string, size = { width: 160, height: 50 }): void {
        const envArgs = Object.entries(env).flatMap(([key, value]) => value === undefined ? [] : ['-e', `${key}=${value}`]);
        execFileSync('tmux', ['-S', this.socket, '-f', '/dev/null', 'new-session', '-d', '-s', this.session,
            '-x', String(size.width), '-y', String(size.height), '-c', cwd, ...envArgs, ...command],
        { env: { ...env, TMUX: '' }, stdio: 'pipe' });
    }

    screen(): string {
        try {
            return execFileSync('tmux', ['-S', this.socket, 'capture-pane', '-p', '-J', '-t', this.session], { encoding: 'utf8' });
        } catch {
            return '';
        }
    }

    type(text: string): void {
        execFileSync('tmux', ['-S', this.socket, 'send-keys', '-t', this.session, '-l', text]);
    }

    /**
     * Types a command at an interactive prompt and submits it. Ink-based CLIs treat fast input as a
     * paste and may swallow an Enter that arrives with it, so Enter is sent after a pause, and again
     * while the command still sits in the input line.
     */
    async submit(command: string): Promise<void> {
        this.type(command);
        await new Promise(resolve => setTimeout(resolve, 700));
        for (let attempt = 0; attempt < 5; attempt++) {
            const before = this.screen();
            this.press('Enter');
            await new Promise(resolve => setTimeout(resolve, 1000));
            // Anything the Enter caused (the line submitted, a dialog, output) changes the screen. An
            // unchanged screen means the Enter was taken as part of a paste: press it again. Never
            // press it again otherwise, or it would answer whatever the CLI asks next.
            if (this.screen() !== before) {
                return;
            }
        }
    }

    press(...keys: string[]): void {
        execFileSync('tmux', ['-S', this.socket, 'send-keys', '-t', this.session, ...keys]);
    }

    async waitFor(pattern: RegExp, what: string, timeoutMs = 60000): Promise<string> {
        try {
            return await until(() => {
                const screen = this.screen();
                return pattern.test(screen) && screen;
            }, what, timeoutMs, 200);
        } catch (error) {
            throw new Error(`${(error as Error).message}\n--- screen ---\n${this.screen()}`);
        }
    }

    /** The PID of the program running in the pane, for stopping it by PID. */
    panePid(): number | undefined {
        try {
            return Number(execFileSync('tmux', ['-S', this.socket, 'display-message', '-p', '-t', this.session, '#{pane_pid}'], { encoding: 'utf8' }).trim());
        } catch {
            return undefined;
        }
    }

    /** Stops the program and the tmux server, by PID. */
    kill(): void {
        let serverPid: number | undefined;
        try {
            serverPid = Number(execFileSync('tmux', ['-S', this.socket, 'display-message', '-p', '#{pid}'], { encoding: 'utf8' }).trim());
        } catch {
            return;
        }
        const pane = this.panePid();
        if (pane) {
            killTree(pane);
        }
        if (serverPid) {
            killTree(serverPid);
        }
    }
}
