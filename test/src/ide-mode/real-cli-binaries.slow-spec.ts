import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { createSandbox, createWorkspace, Sandbox } from '../support/sandbox';
import { clientPath } from '../clis/client-packages';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';
import { TmuxTerminal } from '../hosts/tmux-terminal';
import { until } from '../support/processes';
import { writeCliSettings } from '../clis/cli-settings';

const GEMINI = clientPath('@google', 'gemini-cli', 'bundle', 'gemini.js');
const QWEN = clientPath('@qwen-code', 'qwen-code', 'cli-entry.js');

/**
 * Runs `/ide status` until it reports a settled state. The CLI connects in the background after its
 * prompt appears, and the command prints a snapshot ("Connecting..." while that is under way).
 */
async function ideStatus(terminal: TmuxTerminal): Promise<string> {
    const settled = /Connected to Eclipse Theia|Disconnected|not supported|mismatch|Failed to connect/i;
    for (let attempt = 0; attempt < 20; attempt++) {
        terminal.press('C-l');
        await terminal.submit('/ide status');
        try {
            return await terminal.waitFor(settled, '/ide status to settle', 5000);
        } catch {
            // Still connecting: ask again.
        }
    }
    return terminal.screen();
}

/**
 * The published `gemini` and `qwen` binaries, started in a real pty with the environment of a
 * real Theia terminal, offline (fake keys), report the connection in `/ide status`.
 */
describe('IDE mode: the real gemini and qwen binaries in a pty', function (): void {
    this.timeout(300000);
    let sandbox: Sandbox;
    let workspace: string;
    let backend: TheiaBackend;
    let window: TheiaWindow;
    let terminalEnv: Record<string, string>;
    const terminals: TmuxTerminal[] = [];

    before(async () => {
        sandbox = createSandbox();
        workspace = createWorkspace(sandbox, 'project', { 'src/app.ts': 'export const x = 1;\n' });
        writeCliSettings(sandbox);
        backend = new TheiaBackend(sandbox, workspace);
        await backend.start();
        window = await TheiaWindow.open(sandbox, backend.url);
        await window.openTerminal();
        terminalEnv = await window.terminalEnvironment(path.join(workspace, 'src'));
    });

    afterEach(() => terminals.splice(0).forEach(terminal => terminal.kill()));

    after(async () => {
        await window?.close();
        await backend?.stop();
        sandbox?.dispose();
    });

    it('gemini: /ide status reports the connection to Eclipse Theia', async () => {
        const terminal = new TmuxTerminal(sandbox.root, 'gemini');
        terminals.push(terminal);
        terminal.start([process.execPath, GEMINI], { ...terminalEnv, GEMINI_API_KEY: 'fake-key-for-offline-test', NO_BROWSER: 'true' }, path.join(workspace, 'src'));
        await terminal.waitFor(/Type your message|>\s*$/m, 'the gemini prompt', 90000);
        const screen = await ideStatus(terminal);
        expect(screen).to.match(/Connected to Eclipse Theia/);
        await window.waitForStatus(/CLI 1$/);
    });

    it('gemini: a scripted write_file turn opens the diff in the browser; the user edits and accepts; the file holds that text', async () => {
        const target = path.join(workspace, 'src', 'hello.txt');
        const turn = (parts: object[]) => JSON.stringify({
            method: 'generateContentStream',
            response: [{
                candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
                usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }
            }]
        });
        const side = (method: string, response: object) => JSON.stringify({ method, response });
        const script = path.join(sandbox.root, 'write-turn.jsonl');
        fs.writeFileSync(script, [
            turn([{ functionCall: { name: 'write_file', args: { file_path: target, content: 'hello from the model\n' } } }]),
            turn([{ text: 'I wrote the file.' }]),
            ...Array.from({ length: 5 }, () => side('generateContent', {
                candidates: [{ content: { role: 'model', parts: [{ text: '{"reasoning":"done","next_speaker":"user"}' }] }, finishReason: 'STOP', index: 0 }]
            })),
            ...Array.from({ length: 5 }, () => side('countTokens', { totalTokens: 10 }))
        ].join('\n') + '\n');

        const terminal = new TmuxTerminal(sandbox.root, 'gemini-write');
        terminals.push(terminal);
        terminal.start([process.execPath, GEMINI, '--approval-mode', 'default', '--fake-responses-non-strict', script],
            { ...terminalEnv, GEMINI_API_KEY: 'fake-key-for-offline-test' }, path.join(workspace, 'src'));
        await terminal.waitFor(/Type your message|>\s*$/m, 'the gemini prompt', 90000);
        expect(await ideStatus(terminal)).to.match(/Connected to Eclipse Theia/);

        await terminal.submit('Create src/hello.txt with a greeting');
        const diffEditor = window.page.locator('#theia-main-content-panel .monaco-diff-editor');
        await diffEditor.first().waitFor({ state: 'visible', timeout: 90000 }).catch(error => {
            throw new Error(`${error.message}\n--- backend ---\n${backend.log.split('\n').filter(line => /Diff|diff|session/.test(line)).join('\n')}\n--- terminal ---\n${terminal.screen()}`);
        });
        await window.diff.appendLineToProposal('edited in Theia');
        await window.page.keyboard.press('Control+s');

        await until(() => fs.existsSync(target) && fs.readFileSync(target, 'utf8') === 'hello from the model\nedited in Theia\n',
            'the CLI to write the accepted text', 60000, 250).catch(error => {
            throw new Error(`${error.message}; file: ${fs.existsSync(target) ? JSON.stringify(fs.readFileSync(target, 'utf8')) : 'missing'}`
                + `\n--- terminal ---\n${terminal.screen()}`);
        });
    });

    it('qwen: /ide status reports the connection to Eclipse Theia', async () => {
        const terminal = new TmuxTerminal(sandbox.root, 'qwen');
        terminals.push(terminal);
        terminal.start([process.execPath, QWEN], {
            ...terminalEnv, OPENAI_API_KEY: 'fake-key-for-offline-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODEL: 'qwen3-coder-plus'
        }, path.join(workspace, 'src'));
        await terminal.waitFor(/Type your message|>\s*$/m, 'the qwen prompt', 90000);
        const screen = await ideStatus(terminal);
        expect(screen).to.match(/Connected to Eclipse Theia/);
        await window.waitForStatus(/CLI 1$/);
    });
});
