import { StreamJsonError, StreamStats } from './stream-json-events';
import { StreamJsonLine } from './stream-json-line-parser';

/*
 * What we derive from the event stream, kept apart from the upstream events themselves: a
 * timeline to show and a record per tool call. Every field says where it comes from. Plain JSON,
 * so the backend can store it and the frontend can rebuild it from the same lines.
 */

export interface ToolCallRecord {
    /** Upstream `tool_use.tool_id` (the correlation key). */
    readonly toolId: string;
    /** Upstream `tool_use.tool_name`; `undefined` for a result whose `tool_use` never came. */
    name?: string;
    /** Upstream `tool_use.parameters`. */
    parameters?: Record<string, unknown>;
    /** Derived: `running` from `tool_use` until its `tool_result` sets upstream `status`. */
    status: 'running' | 'success' | 'error';
    /** Upstream `tool_result.output`. */
    output?: string;
    /** Upstream `tool_result.error`. */
    error?: StreamJsonError;
    /** Upstream timestamps of the `tool_use` and the `tool_result`. */
    requestedAt?: string;
    finishedAt?: string;
}

export type TranscriptEntry =
    /** Upstream `message` role `user`. */
    | { kind: 'user'; text: string }
    /** Derived: consecutive upstream assistant `message` deltas joined into one text. */
    | { kind: 'assistant'; text: string }
    /** A tool call, by upstream `tool_id` (see `toolCallOf`). */
    | { kind: 'tool'; toolId: string }
    /** Upstream `error` event (non-fatal). */
    | { kind: 'notice'; severity: 'warning' | 'error'; message: string; timestamp: string }
    /** Upstream fields of a known event that our schema does not know, shown raw. */
    | { kind: 'extra-fields'; eventType: string; fields: Record<string, unknown> }
    /** A line that is not a known, valid event (see `StreamJsonLine`), shown raw. */
    | { kind: 'raw'; line: Exclude<StreamJsonLine, { kind: 'event' }> };

export interface TaskTranscript {
    /** Upstream `init.session_id` and `init.model`. */
    sessionId?: string;
    model?: string;
    entries: TranscriptEntry[];
    /**
     * Every tool call, in the order it first appeared. An array, not an object keyed by `tool_id`:
     * the id is the agent's string (`__proto__`, `constructor`), and the transcript travels as JSON
     * and through Theia's RPC, which renames a `__proto__` key.
     */
    toolCalls: ToolCallRecord[];
    /** Upstream `result` event, when it came. */
    result?: { status: 'success' | 'error'; error?: StreamJsonError; stats?: StreamStats; timestamp: string };
    /** Derived: how many lines of each kind were seen. */
    counts: { events: number; unknownEvents: number; invalidEvents: number; notJson: number };
}

export function emptyTranscript(): TaskTranscript {
    return { entries: [], toolCalls: [], counts: { events: 0, unknownEvents: 0, invalidEvents: 0, notJson: 0 } };
}

/** Folds one parsed line into the transcript (in place). Lines may come in any order; nothing is dropped. */
export function applyStreamJsonLine(transcript: TaskTranscript, line: StreamJsonLine): void {
    if (line.kind !== 'event') {
        transcript.counts[line.kind === 'unknown-event' ? 'unknownEvents' : line.kind === 'invalid-event' ? 'invalidEvents' : 'notJson']++;
        transcript.entries.push({ kind: 'raw', line });
        return;
    }
    transcript.counts.events++;
    const event = line.event;
    switch (event.type) {
        case 'init':
            transcript.sessionId = event.session_id;
            transcript.model = event.model;
            break;
        case 'message': {
            const last = transcript.entries[transcript.entries.length - 1];
            if (event.role === 'user') {
                transcript.entries.push({ kind: 'user', text: event.content });
            } else if (event.delta && last?.kind === 'assistant') {
                last.text += event.content;
            } else {
                transcript.entries.push({ kind: 'assistant', text: event.content });
            }
            break;
        }
        case 'tool_use': {
            const call = toolCallOf(transcript, event.tool_id) ?? addToolCall(transcript, event.tool_id);
            Object.assign(call, { name: event.tool_name, parameters: event.parameters, requestedAt: event.timestamp });
            break;
        }
        case 'tool_result': {
            const call = toolCallOf(transcript, event.tool_id) ?? addToolCall(transcript, event.tool_id);
            Object.assign(call, { status: event.status, output: event.output, error: event.error, finishedAt: event.timestamp });
            break;
        }
        case 'error':
            transcript.entries.push({ kind: 'notice', severity: event.severity, message: event.message, timestamp: event.timestamp });
            break;
        case 'result':
            transcript.result = { status: event.status, error: event.error, stats: event.stats, timestamp: event.timestamp };
            break;
    }
    if (line.unknownFields) {
        transcript.entries.push({ kind: 'extra-fields', eventType: event.type, fields: line.unknownFields });
    }
}

/**
 * The calls of each `toolCalls` array by id, built on first use: a transcript that came through JSON
 * or the RPC is indexed again, and the index itself is never serialised.
 */
const toolCallIndexes = new WeakMap<ToolCallRecord[], Map<string, ToolCallRecord>>();

function toolCallIndex(transcript: TaskTranscript): Map<string, ToolCallRecord> {
    let index = toolCallIndexes.get(transcript.toolCalls);
    if (!index) {
        index = new Map(transcript.toolCalls.map(call => [call.toolId, call]));
        toolCallIndexes.set(transcript.toolCalls, index);
    }
    return index;
}

/** The tool call of upstream `tool_id`, if the transcript has one. */
export function toolCallOf(transcript: TaskTranscript, toolId: string): ToolCallRecord | undefined {
    return toolCallIndex(transcript).get(toolId);
}

function addToolCall(transcript: TaskTranscript, toolId: string): ToolCallRecord {
    const call: ToolCallRecord = { toolId, status: 'running' };
    transcript.toolCalls.push(call);
    toolCallIndex(transcript).set(toolId, call);
    transcript.entries.push({ kind: 'tool', toolId });
    return call;
}

/** Derived: the assistant's whole answer so far. */
export function assistantText(transcript: TaskTranscript): string {
    return transcript.entries.map(entry => entry.kind === 'assistant' ? entry.text : '').join('');
}
