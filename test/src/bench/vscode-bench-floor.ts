import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { REPO_ROOT } from '../hosts/theia-backend';
import { until } from '../support/processes';
import type { TimingMark } from './timing-marks';

/** The floor extension writes the port of its SSE server here (the variable is in code-server's environment, so in its extension hosts'). */
export const VSCODE_FLOOR_PORT_FILE_VARIABLE = 'CLI_COMPANION_BENCH_FLOOR_PORT_FILE';
export const VSCODE_FLOOR_EVENTS_PATH = '/events';
/** The timing marks recorded in the extension host since the last call (cli-process's `takeTimingMarks`, read from outside). */
export const VSCODE_FLOOR_MARKS_PATH = '/marks';
/** `?left=&right=` (paths): the floor opens VS Code's own diff editor of the two files, as any extension opens one. */
export const VSCODE_FLOOR_DIFF_PATH = '/diff';

/**
 * The VS Code host's floors, as a VS Code extension. Context: on every selection change of the active
 * file editor, the payload an IDE-mode extension sends (the file, its cursor and selected text, trust),
 * written at once to every client of an SSE server on loopback in the extension host; no debounce,
 * no validation, no state. Diff: VS Code's own diff editor of two files, opened with `vscode.diff`. It also
 * hands the bench the extension host's timing marks.
 */
const EXTENSION_SOURCE = `
const vscode = require('vscode');
const http = require('http');
const fs = require('fs');

exports.activate = async function (context) {
    const clients = new Set();
    const server = http.createServer((request, response) => {
        const url = new URL(request.url, 'http://127.0.0.1');
        if (url.pathname === ${JSON.stringify(VSCODE_FLOOR_DIFF_PATH)}) {
            const [left, right] = ['left', 'right'].map(side => vscode.Uri.file(url.searchParams.get(side)));
            vscode.commands.executeCommand('vscode.diff', left, right, 'floor').then(() => response.end('opened'), error => response.writeHead(500).end(String(error)));
            return;
        }
        if (url.pathname === ${JSON.stringify(VSCODE_FLOOR_MARKS_PATH)}) {
            // The timing marks every extension of this extension host recorded (ours, when the bench turned them on), taken.
            const marks = performance.getEntriesByType('mark').filter(mark => mark.name.startsWith('cli-companion:'));
            marks.forEach(mark => performance.clearMarks(mark.name));
            response.end(JSON.stringify(marks.map(mark => ({ name: mark.name.slice('cli-companion:'.length), at: performance.timeOrigin + mark.startTime }))));
            return;
        }
        if (url.pathname !== ${JSON.stringify(VSCODE_FLOOR_EVENTS_PATH)}) {
            response.writeHead(404).end();
            return;
        }
        response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        response.flushHeaders();
        clients.add(response);
        request.on('close', () => clients.delete(response));
    });
    await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
    context.subscriptions.push({ dispose: () => { server.closeAllConnections(); server.close(); } });
    context.subscriptions.push(vscode.window.onDidChangeTextEditorSelection(event => {
        const editor = event.textEditor;
        if (editor !== vscode.window.activeTextEditor || editor.document.uri.scheme !== 'file' || !clients.size) {
            return;
        }
        const { active } = editor.selection;
        const payload = { workspaceState: { openFiles: [{
            path: editor.document.uri.fsPath, timestamp: Date.now(), isActive: true,
            cursor: { line: active.line + 1, character: active.character + 1 },
            selectedText: editor.document.getText(editor.selection)
        }], isTrusted: vscode.workspace.isTrusted } };
        const message = 'data: ' + JSON.stringify(payload) + '\\n\\n';
        for (const client of clients) {
            client.write(message);
        }
    }));
    const portFile = process.env[${JSON.stringify(VSCODE_FLOOR_PORT_FILE_VARIABLE)}];
    if (portFile) {
        fs.writeFileSync(portFile + '.tmp', String(server.address().port));
        fs.renameSync(portFile + '.tmp', portFile);
    }
};
`;

const MANIFEST = {
    name: 'context-floor', displayName: 'Bench floor: editor state over SSE', version: '0.0.1', publisher: 'theia-cli-companion-bench', private: true,
    license: 'EPL-2.0', engines: { vscode: '^1.100.0' }, activationEvents: ['onStartupFinished'], main: './extension.js',
    // Active before the folder is trusted too, as ours is ('limited'): VS Code would otherwise hold it back in restricted mode.
    capabilities: { untrustedWorkspaces: { supported: true } }
};

/** The floor extension packed as a .vsix under `dir`, as code-server installs one. */
export function packVsCodeFloor(dir: string): string {
    const source = path.join(dir, 'vscode-bench-floor');
    fs.mkdirSync(source, { recursive: true });
    fs.writeFileSync(path.join(source, 'package.json'), JSON.stringify(MANIFEST, undefined, 2));
    fs.writeFileSync(path.join(source, 'extension.js'), EXTENSION_SOURCE);
    fs.writeFileSync(path.join(source, 'README.md'), '# Bench floor\n\nA benchmark\'s baseline: editor state forwarded over SSE, nothing else.\n');
    const vsix = path.join(dir, 'vscode-bench-floor.vsix');
    execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix],
        { cwd: source, stdio: 'pipe' });
    return vsix;
}

/** The port the floor's SSE server listens on, once its extension host has activated it. */
export async function vsCodeFloorPort(portFile: string): Promise<number> {
    return until(() => fs.existsSync(portFile) && Number(fs.readFileSync(portFile, 'utf8')), 'the floor extension to listen', 60000);
}

/** The extension host's timing marks since the last call, cleared (read by the floor extension). */
export async function takeExtensionHostMarks(port: number): Promise<TimingMark[]> {
    return JSON.parse(await getFromFloor(port, VSCODE_FLOOR_MARKS_PATH)) as TimingMark[];
}

/** Asks the floor extension to open VS Code's own diff editor of two files. */
export async function openFloorDiff(port: number, left: string, right: string): Promise<void> {
    await getFromFloor(port, `${VSCODE_FLOOR_DIFF_PATH}?${new URLSearchParams({ left, right })}`);
}

/** A GET to the floor extension's server: its body, or an error naming the route and status. */
function getFromFloor(port: number, route: string): Promise<string> {
    return new Promise((resolve, reject) => http.get(`http://127.0.0.1:${port}${route}`, response => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', chunk => body += chunk);
        response.on('end', () => response.statusCode === 200 ? resolve(body) : reject(new Error(`the floor's ${route} answered ${response.statusCode}: ${body}`)));
    }).on('error', reject));
}
