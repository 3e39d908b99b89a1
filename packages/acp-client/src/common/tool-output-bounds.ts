import type * as acp from '@agentclientprotocol/sdk';
import type { ToolCallState } from './tool-call-tracker';

/** How much of a tool call's output the chat shows: the first and the last lines, up to a size. */
export interface ToolOutputLimits {
    /** Lines kept from the start and from the end each. */
    readonly headLines: number;
    readonly tailLines: number;
    /** Characters kept in all, whatever the lines. */
    readonly maxChars: number;
}

/** What a chat renders of one output: a few screens, so a 50,000-line output costs what a short one does. */
export const CHAT_TOOL_OUTPUT_LIMITS: ToolOutputLimits = { headLines: 100, tailLines: 100, maxChars: 32 * 1024 };

/** The marker's words, so the chat can point to the full text. */
export const OMITTED_MARKER = 'lines of output not shown';

/**
 * The text within the limits: its first and last lines with a marker between saying how much was
 * left out, or the text itself when it fits.
 */
export function boundText(text: string, limits: ToolOutputLimits = CHAT_TOOL_OUTPUT_LIMITS): { text: string; omitted: boolean } {
    if (text.length <= limits.maxChars && countLines(text, limits.headLines + limits.tailLines + 1) <= limits.headLines + limits.tailLines) {
        return { text, omitted: false };
    }
    const lines = text.split('\n');
    const half = Math.floor(limits.maxChars / 2);
    const fewLines = lines.length <= limits.headLines + limits.tailLines;
    // Few but enormous lines: the start and the end of the text, by characters.
    const headLines = fewLines ? text : lines.slice(0, limits.headLines).join('\n');
    const tailLines = fewLines ? text : lines.slice(lines.length - limits.tailLines).join('\n');
    const head = headLines.slice(0, half);
    const tailKept = tailLines.slice(Math.max(0, tailLines.length - half));
    const omittedLines = Math.max(0, lines.length - countLines(head) - countLines(tailKept));
    const omittedChars = text.length - head.length - tailKept.length;
    return { text: `${head}\n[… ${omittedLines.toLocaleString('en')} ${OMITTED_MARKER} (${omittedChars.toLocaleString('en')} characters) …]\n${tailKept}`, omitted: true };
}

/** A tool call as the chat may render it: text content, raw input and output within the limits; diffs whole (they are reviewed). */
export function boundToolCall(state: ToolCallState, limits: ToolOutputLimits = CHAT_TOOL_OUTPUT_LIMITS): { state: ToolCallState; omitted: boolean } {
    let omitted = false;
    const content = state.content.map(item => {
        if (item.type !== 'content' || item.content.type !== 'text') {
            return item;
        }
        const bounded = boundText(item.content.text, limits);
        omitted ||= bounded.omitted;
        return bounded.omitted ? { ...item, content: { ...item.content, text: bounded.text } } : item;
    });
    const rawInput = boundRaw(state.rawInput, limits);
    const rawOutput = boundRaw(state.rawOutput, limits);
    omitted ||= rawInput !== state.rawInput || rawOutput !== state.rawOutput;
    return { state: omitted ? { ...state, content, rawInput, rawOutput } : state, omitted };
}

/** A session update with its tool call content within the limits (other updates pass as they are). */
export function boundUpdate(update: acp.SessionUpdate, limits: ToolOutputLimits = CHAT_TOOL_OUTPUT_LIMITS): acp.SessionUpdate {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') {
        return update;
    }
    const { state } = boundToolCall({
        toolCallId: update.toolCallId, title: update.title ?? '', kind: update.kind ?? 'other', status: update.status ?? 'pending',
        content: update.content ?? [], locations: update.locations ?? [], rawInput: update.rawInput, rawOutput: update.rawOutput
    }, limits);
    return {
        ...update, ...(update.content ? { content: [...state.content] } : {}),
        ...(update.rawInput !== undefined ? { rawInput: state.rawInput } : {}), ...(update.rawOutput !== undefined ? { rawOutput: state.rawOutput } : {})
    };
}

/** The whole text output of a tool call: its text content blocks, one after the other. */
export function toolOutputText(state: ToolCallState): string {
    return state.content.flatMap(item => item.type === 'content' && item.content.type === 'text' ? [item.content.text] : []).join('\n');
}

function boundRaw(raw: unknown, limits: ToolOutputLimits): unknown {
    if (raw === undefined || raw === null) {
        return raw;
    }
    if (typeof raw === 'string') {
        const bounded = boundText(raw, limits);
        return bounded.omitted ? bounded.text : raw;
    }
    const json = JSON.stringify(raw) ?? '';
    return json.length <= limits.maxChars ? raw : { omitted: `${json.length.toLocaleString('en')} characters of raw output not shown` };
}

/** Lines in `text`, counting no further than `stopAt` (a 50,000-line text is not split to learn it is long). */
function countLines(text: string, stopAt = Infinity): number {
    let lines = text.length > 0 ? 1 : 0;
    for (let at = text.indexOf('\n'); at >= 0 && lines < stopAt; at = text.indexOf('\n', at + 1)) {
        lines++;
    }
    return lines;
}
