import { CLI_FLAVOUR_DISPLAY_NAMES, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { WindowEvent, WindowServerStatus } from './window-protocol';

export interface DiagnosticReportInput {
    readonly generatedAt: Date;
    /** `running`, `disabled`, `starting` or `failed: <reason>`. */
    readonly state: string;
    readonly status?: WindowServerStatus;
    /** Name → version of the companion and Theia packages in this app. */
    readonly versions: Readonly<Record<string, string>>;
    readonly browser: string;
    readonly backendOs: string;
    /** Where each CLI's command resolves on the backend's PATH ('not found' if nowhere). */
    readonly executables: Readonly<Partial<Record<CliFlavourId, string>>>;
    readonly preferences: Readonly<Record<string, unknown>>;
    readonly events: readonly WindowEvent[];
    /** Keeping the workspace awake while agents work: what works now, the ways to tell the platform, the last report. */
    readonly keepAwake?: {
        readonly work: readonly string[];
        readonly mechanisms: readonly string[];
        readonly intervalSeconds: number;
        readonly lastReport?: string;
    };
    /** What tracking the editor has cost this window since it opened. */
    readonly tracking?: { readonly editorEvents: number; readonly busyMs: number; readonly updatesSent: number };
}

/**
 * A Markdown report to paste into a bug report. Built only from data that holds no secret: the
 * status (ports, paths, sessions; tokens never leave the backend) and event messages (which never
 * contain tokens or file contents).
 */
export function buildDiagnosticReport(input: DiagnosticReportInput): string {
    const { status } = input;
    const lines = [
        '# CLI Companion diagnostic report',
        '',
        `- Generated: ${input.generatedAt.toISOString()}`,
        `- State: ${input.state}`,
        `- Backend OS: ${input.backendOs}`,
        `- Browser: ${input.browser}`,
        ...Object.entries(input.versions).map(([name, version]) => `- ${name}: ${version}`),
        '',
        '## Server',
        ''
    ];
    if (status) {
        lines.push(
            `- Window: ${status.windowId}`,
            `- Address: 127.0.0.1:${status.port}`,
            `- Workspace roots: ${status.workspaceRoots.length ? status.workspaceRoots.join(', ') : '(no folder open)'}`,
            `- Advertised to: ${status.flavours.map(id => CLI_FLAVOUR_DISPLAY_NAMES[id]).join(', ') || '(no CLI)'}`,
            ...status.discoveryFiles.map(file => `- ${CLI_FLAVOUR_DISPLAY_NAMES[file.flavour]} discovery file: ${file.path}${file.placement ? ` (in ${file.placement})` : ''}`),
            ...status.unavailableFlavours.map(({ flavour, reason }) => `- ${CLI_FLAVOUR_DISPLAY_NAMES[flavour]} unavailable: ${reason}`),
            ...Object.entries(status.terminalEnvironment).map(([name, value]) => `- Terminal variable ${name}=${value}`),
            '',
            `## Sessions (${status.sessions.length})`,
            '',
            ...status.sessions.map(session =>
                `- ${session.clientLabel}: ${session.clientName} ${session.clientVersion}, connected ${new Date(session.connectedAt).toISOString()}`
                    + ` (session ${session.sessionId})`),
            '',
            `## Pending diffs (${status.pendingDiffs.length})`,
            '',
            ...status.pendingDiffs.map(diff => `- ${diff.filePath} since ${new Date(diff.openedAt).toISOString()} (session ${diff.sessionId})`)
        );
    } else {
        lines.push('- No server runs for this window.');
    }
    lines.push('', '## CLIs on the backend PATH', '');
    for (const [id, where] of Object.entries(input.executables)) {
        lines.push(`- ${CLI_FLAVOUR_DISPLAY_NAMES[id as CliFlavourId]}: ${where}`);
    }
    lines.push(...keepAwakeLines(input.keepAwake));
    if (input.tracking) {
        const { editorEvents, busyMs, updatesSent } = input.tracking;
        lines.push('', '## Editor tracking', '',
            `- Editor events: ${editorEvents}`,
            `- Updates sent: ${updatesSent}`,
            `- Time spent: ${busyMs.toFixed(1)} ms (${editorEvents ? (busyMs / editorEvents).toFixed(3) : '0'} ms per event)`);
    }
    lines.push('', '## Preferences', '');
    for (const [name, value] of Object.entries(input.preferences)) {
        lines.push(`- ${name}: ${JSON.stringify(value)}`);
    }
    lines.push('', `## Recent events (${input.events.length})`, '', '```');
    for (const event of input.events) {
        lines.push(`${new Date(event.time).toISOString()} ${event.level.toUpperCase()} ${event.message}`);
    }
    lines.push('```', '');
    return lines.join('\n');
}

function keepAwakeLines(keepAwake: DiagnosticReportInput['keepAwake']): string[] {
    if (!keepAwake) {
        return [];
    }
    const { work, mechanisms, intervalSeconds, lastReport } = keepAwake;
    return ['', '## Keeping the workspace awake', '',
        `- Agents working: ${work.length ? work.join(', ') : 'none (nothing is reported)'}`,
        `- Ways to tell the platform: ${mechanisms.length ? mechanisms.join(', ') : 'none found here'}`,
        `- Interval: ${intervalSeconds} s`,
        ...lastReport ? [`- Last report: ${lastReport}`] : []];
}
