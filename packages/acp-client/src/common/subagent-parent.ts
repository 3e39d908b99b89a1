import { ownField } from './own-field';

/** Tool call ids longer than this are not taken as a parent: no adapter makes them that long. */
const MAX_PARENT_ID_LENGTH = 256;

/**
 * The tool call that started the subagent an update or tool call comes from, as the stable-protocol adapters say
 * it: Claude Code's adapter stamps `_meta.claudeCode.parentToolUseId` (the Agent/Task tool use), Qwen Code
 * `_meta.parentToolCallId` (its task tool call). Undefined for the main agent's own work and for anything else
 * in `_meta` (own keys only, a non-empty string of bounded length).
 */
export function subagentParentOf(message: { readonly _meta?: unknown }): string | undefined {
    const meta = message._meta;
    return parentId(ownField(ownField(meta, 'claudeCode'), 'parentToolUseId')) ?? parentId(ownField(meta, 'parentToolCallId'));
}

function parentId(value: unknown): string | undefined {
    return typeof value === 'string' && value.length > 0 && value.length <= MAX_PARENT_ID_LENGTH ? value : undefined;
}
