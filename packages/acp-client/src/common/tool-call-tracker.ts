import { subagentParentOf } from './subagent-parent';
import type { ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';

/** Everything known about one tool call of a session, merged from every message that mentioned it. */
export interface ToolCallState {
    readonly toolCallId: string;
    readonly title: string;
    readonly kind: ToolKind;
    readonly status: ToolCallStatus;
    readonly content: readonly ToolCallContent[];
    readonly locations: readonly ToolCallLocation[];
    readonly rawInput?: unknown;
    readonly rawOutput?: unknown;
    /** The tool call that started the subagent making this call (see `subagentParentOf`); the first one said stays. */
    readonly parentToolCallId?: string;
}

export interface TrackedToolCall {
    readonly state: ToolCallState;
    /** True the first time this id is seen, whichever message carried it. */
    readonly isNew: boolean;
}

/**
 * Tool calls of one session as ACP reports them: a `tool_call` announces one, `tool_call_update`s
 * change the fields they carry (a list given replaces the old list), and a permission request
 * carries one too. Agents do not always announce first (Gemini CLI's first sight of a call is
 * often its permission request), so any of them may create the entry.
 */
export class ToolCallTracker {
    protected readonly calls = new Map<string, ToolCallState>();

    /** `limit`: the calls kept (the oldest go first), so a long session's outputs do not pile up. */
    constructor(protected readonly limit = 200) { }

    apply(message: ToolCall | ToolCallUpdate): TrackedToolCall {
        const previous = this.calls.get(message.toolCallId);
        const state: ToolCallState = {
            toolCallId: message.toolCallId,
            title: message.title ?? previous?.title ?? message.toolCallId,
            kind: message.kind ?? previous?.kind ?? 'other',
            status: message.status ?? previous?.status ?? 'pending',
            content: message.content ?? previous?.content ?? [],
            locations: message.locations ?? previous?.locations ?? [],
            rawInput: message.rawInput !== undefined ? message.rawInput : previous?.rawInput,
            rawOutput: message.rawOutput !== undefined ? message.rawOutput : previous?.rawOutput,
            ...parentOf(message, previous)
        };
        this.calls.delete(state.toolCallId);
        this.calls.set(state.toolCallId, state);
        if (this.calls.size > this.limit) {
            this.calls.delete(this.calls.keys().next().value!);
        }
        return { state, isNew: !previous };
    }

    get(toolCallId: string): ToolCallState | undefined {
        return this.calls.get(toolCallId);
    }

}

/** The diffs a tool call proposes (`{type: 'diff', path, oldText, newText}` content). */
export function diffsOf(state: Pick<ToolCallState, 'content'>): { path: string; oldText?: string | null; newText: string }[] {
    return state.content.flatMap(item => item.type === 'diff' ? [{ path: item.path, oldText: item.oldText, newText: item.newText }] : []);
}

function parentOf(message: ToolCall | ToolCallUpdate, previous: ToolCallState | undefined): Pick<ToolCallState, 'parentToolCallId'> {
    const parentToolCallId = previous?.parentToolCallId ?? subagentParentOf(message);
    // A call is never its own parent: such a stamp would nest it inside itself.
    return parentToolCallId !== undefined && parentToolCallId !== message.toolCallId ? { parentToolCallId } : {};
}
