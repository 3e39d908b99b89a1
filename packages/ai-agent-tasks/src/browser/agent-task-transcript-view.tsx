import * as React from '@theia/core/shared/react';
import { codicon } from '@theia/core/lib/browser/widgets/widget';
import { nls } from '@theia/core/lib/common/nls';
import { ToolCallRecord, TaskTranscript, TranscriptEntry, toolCallOf } from '@theia-cli-companion/gemini-headless-protocol/lib/common';

const json = (value: unknown) => JSON.stringify(value, undefined, 2);

/** The task's live timeline: the answer as it streams, each tool call, warnings, and anything unknown, raw. */
export function TranscriptView({ transcript, cwd }: { transcript: TaskTranscript; cwd: string }): React.ReactElement {
    return <div className='agent-task-transcript'>
        {transcript.entries.map((entry, index) => <EntryView key={index} entry={entry} transcript={transcript} cwd={cwd} />)}
        {transcript.result && <ResultView result={transcript.result} />}
    </div>;
}

function EntryView({ entry, transcript, cwd }: { entry: TranscriptEntry; transcript: TaskTranscript; cwd: string }): React.ReactElement | null {
    switch (entry.kind) {
        case 'user':
            return null;
        case 'assistant':
            return <div className='agent-task-assistant'>{entry.text}</div>;
        case 'tool': {
            const call = toolCallOf(transcript, entry.toolId);
            return call ? <ToolCallView call={call} cwd={cwd} /> : null;
        }
        case 'notice':
            return <div className={`agent-task-notice agent-task-notice-${entry.severity}`}>
                <span className={codicon(entry.severity === 'warning' ? 'warning' : 'error')} /> {entry.message}
            </div>;
        case 'extra-fields':
            return <details className='agent-task-raw'>
                <summary>{nls.localize('theia-cli-companion/agent-tasks/extraFields', 'Fields of "{0}" this IDE does not know', entry.eventType)}</summary>
                <pre>{json(entry.fields)}</pre>
            </details>;
        case 'raw': {
            const line = entry.line;
            const title = line.kind === 'unknown-event'
                ? nls.localize('theia-cli-companion/agent-tasks/unknownEvent', 'Event "{0}" this IDE does not know', line.type)
                : line.kind === 'invalid-event'
                    ? nls.localize('theia-cli-companion/agent-tasks/invalidEvent', 'Malformed "{0}" event: {1}', line.type, line.problem)
                    : nls.localize('theia-cli-companion/agent-tasks/notJson', 'Output that is not an event: {0}', line.problem);
            return <details className='agent-task-raw'>
                <summary>{title}</summary>
                <pre>{line.kind === 'not-json' ? line.text : json(line.raw)}</pre>
            </details>;
        }
    }
}

function ToolCallView({ call, cwd }: { call: ToolCallRecord; cwd: string }): React.ReactElement {
    const icon = call.status === 'running' ? 'loading codicon-modifier-spin' : call.status === 'success' ? 'check' : 'error';
    return <details className={`agent-task-tool agent-task-tool-${call.status}`} data-tool-name={call.name} data-status={call.status}>
        <summary>
            <span className={codicon(icon)} /> <span className='agent-task-tool-name'>{call.name
                ?? nls.localize('theia-cli-companion/agent-tasks/unknownTool', '(unknown tool)')}</span>
            <span className='agent-task-tool-brief'>{briefParameters(cwd, call.parameters)}</span>
        </summary>
        {call.parameters && <pre className='agent-task-tool-parameters'>{json(call.parameters)}</pre>}
        {call.output !== undefined && <pre className='agent-task-tool-output'>{call.output}</pre>}
        {call.error && <div className='agent-task-tool-error'>{call.error.type}: {call.error.message}</div>}
    </details>;
}

/** The one parameter that says most (a path, a command, a pattern), for the collapsed line. */
function briefParameters(cwd: string, parameters?: Record<string, unknown>): string {
    if (!parameters) {
        return '';
    }
    const key = ['file_path', 'absolute_path', 'path', 'dir_path', 'command', 'pattern', 'query', 'url'].find(name => typeof parameters[name] === 'string');
    const raw = key ? String(parameters[key]) : '';
    const value = raw.startsWith(cwd + '/') ? raw.slice(cwd.length + 1) : raw;
    return value.length > 120 ? value.slice(0, 117) + '…' : value;
}

function ResultView({ result }: { result: NonNullable<TaskTranscript['result']> }): React.ReactElement {
    const stats = result.stats;
    const tokens = (figures: { input_tokens: number; output_tokens: number; cached: number; total_tokens: number }, marked: boolean) => {
        const stat = (key: keyof typeof figures) =>
            <span data-stat={marked ? key : undefined}>{figures[key].toLocaleString()}</span>;
        return <>
            {stat('input_tokens')} {nls.localize('theia-cli-companion/agent-tasks/tokensIn',
                'in')} · {stat('output_tokens')} {nls.localize('theia-cli-companion/agent-tasks/tokensOut', 'out')}
            {' · '}{stat('cached')} {nls.localize('theia-cli-companion/agent-tasks/tokensCached',
                'cached')} · {stat('total_tokens')} {nls.localize('theia-cli-companion/agent-tasks/tokensTotal', 'total')}</>;
    };
    return <div className={`agent-task-result agent-task-result-${result.status}`} data-status={result.status}>
        {result.error && <div className='agent-task-result-error'>{result.error.type}: {result.error.message}</div>}
        {stats && <>
            <div className='agent-task-stats-total'>{nls.localize('theia-cli-companion/agent-tasks/tokens', 'Tokens')}: {tokens(stats, true)}</div>
            {Object.entries(stats.models).map(([model, figures]) => <div key={model} className='agent-task-stats-model' data-model={model}>{model}: {tokens(figures, false)}</div>)}
            <div className='agent-task-stats-line'>{stats.tool_calls === 1
                ? nls.localize('theia-cli-companion/agent-tasks/statsLineOne', '1 tool call · {0} s', (stats.duration_ms / 1000).toFixed(1))
                : nls.localize('theia-cli-companion/agent-tasks/statsLine', '{0} tool calls · {1} s', String(stats.tool_calls), (stats.duration_ms / 1000).toFixed(1))}</div>
        </>}
    </div>;
}
