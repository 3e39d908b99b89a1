import { expect } from 'chai';
import { buildDiagnosticReport, DiagnosticReportInput } from './diagnostic-report';

const input: DiagnosticReportInput = {
    generatedAt: new Date(Date.UTC(2026, 10, 29, 12, 0, 0)),
    state: 'running',
    status: {
        windowId: '00000000-0000-4000-8000-000000000000',
        port: 41234,
        flavours: ['gemini'],
        workspaceRoots: ['/work/project'],
        sessions: [{
            sessionId: 's-1', flavour: 'gemini', clientLabel: 'Gemini CLI', clientName: 'stdio-client', clientVersion: '0.61.0', connectedAt: Date.UTC(2026, 10, 29, 11, 0, 0)
        }],
        discoveryFiles: [{ flavour: 'gemini', path: '/tmp/gemini/ide/gemini-ide-server-1-41234.json', placement: 'the standard directory, this user\'s alone' }],
        pendingDiffs: [{ id: 'd-1', sessionId: 's-1', filePath: '/work/project/a.ts', openedAt: Date.UTC(2026, 10, 29, 11, 30, 0) }],
        terminalEnvironment: { GEMINI_CLI_IDE_SERVER_PORT: '41234' },
        unavailableFlavours: [{ flavour: 'claude', reason: '/home/u/.claude/ide belongs to uid 1001, not to this user (uid 1000)' }]
    },
    versions: { '@theia/core': '1.74.1' },
    browser: 'Chromium',
    backendOs: 'Linux',
    executables: { gemini: '/usr/bin/gemini', qwen: '"qwen" not found' },
    preferences: { 'aiCliCompanion.enabled': true },
    tracking: { editorEvents: 200, busyMs: 10, updatesSent: 40 },
    events: [{ time: Date.UTC(2026, 10, 29, 11, 0, 0), level: 'warn', message: 'Refused a request (401): Unauthorized: invalid bearer token' }]
};

describe('buildDiagnosticReport', () => {
    it('lists the server, sessions, diffs, CLIs, preferences and events', () => {
        const report = buildDiagnosticReport(input);
        for (const expected of [
            '- State: running', '- @theia/core: 1.74.1', '- Address: 127.0.0.1:41234', '- Advertised to: Gemini CLI',
            '- Gemini CLI discovery file: /tmp/gemini/ide/gemini-ide-server-1-41234.json (in the standard directory, this user\'s alone)',
            '- Terminal variable GEMINI_CLI_IDE_SERVER_PORT=41234',
            '- Claude Code unavailable: /home/u/.claude/ide belongs to uid 1001, not to this user (uid 1000)',
            '## Sessions (1)', '- Gemini CLI: stdio-client 0.61.0, connected 2026-11-29T11:00:00.000Z (session s-1)',
            '## Pending diffs (1)', '- /work/project/a.ts since 2026-11-29T11:30:00.000Z (session s-1)',
            '- Gemini CLI: /usr/bin/gemini', '- Qwen Code: "qwen" not found', '- aiCliCompanion.enabled: true',
            '- Editor events: 200', '- Updates sent: 40', '- Time spent: 10.0 ms (0.050 ms per event)',
            '2026-11-29T11:00:00.000Z WARN Refused a request (401): Unauthorized: invalid bearer token'
        ]) {
            expect(report).to.contain(expected);
        }
    });

    it('names what keeps the workspace awake: the agents working, the ways to tell the platform, the interval, the last report', () => {
        const report = buildDiagnosticReport({
            ...input, keepAwake: {
                work: ['a chat turn with Gemini'], mechanisms: ['Theia Cloud monitor command'], intervalSeconds: 60,
                lastReport: '2026-11-29T11:59:00.000Z through Theia Cloud monitor command'
            }
        });
        expect(report).to.contain(['## Keeping the workspace awake', '', '- Agents working: a chat turn with Gemini',
            '- Ways to tell the platform: Theia Cloud monitor command', '- Interval: 60 s',
            '- Last report: 2026-11-29T11:59:00.000Z through Theia Cloud monitor command'].join('\n'));
        const idle = buildDiagnosticReport({ ...input, keepAwake: { work: [], mechanisms: [], intervalSeconds: 60 } });
        expect(idle).to.contain('- Agents working: none (nothing is reported)\n- Ways to tell the platform: none found here');
        expect(buildDiagnosticReport(input)).not.to.contain('## Keeping the workspace awake');
    });

    it('says so when no server runs', () => {
        const report = buildDiagnosticReport({ ...input, state: 'disabled', status: undefined });
        expect(report).to.contain('- State: disabled');
        expect(report).to.contain('- No server runs for this window.');
        expect(report).to.not.contain('## Sessions');
    });
});
