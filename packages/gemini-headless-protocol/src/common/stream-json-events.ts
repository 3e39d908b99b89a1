import { z } from 'zod';

/*
 * The events `gemini -p PROMPT --output-format stream-json` writes to stdout, one JSON object per
 * line, exactly as Gemini CLI 0.61.0 emits them (packages/core/src/output/types.ts upstream; checked
 * against the published binary, see PROTOCOL.md). Everything in this file is upstream: nothing here
 * is computed by us. Schemas are `passthrough`, so a field a newer CLI adds is kept on the object
 * (and listed by `unknownFieldsOf`) instead of being dropped.
 */

/** `{type, message}`: an error as the CLI reports it in `tool_result` and `result`. */
export const StreamJsonErrorSchema = z.object({
    /** Upstream error class or tool error type, e.g. `file_not_found`, `FatalCancellationError`, `unknown`. */
    type: z.string(),
    message: z.string()
}).passthrough();
export type StreamJsonError = z.infer<typeof StreamJsonErrorSchema>;

const base = {
    /** ISO-8601 time the CLI emitted the event. */
    timestamp: z.string()
};

/** The first event: the session and the model the run uses. */
export const InitEventSchema = z.object({
    type: z.literal('init'),
    ...base,
    session_id: z.string(),
    model: z.string()
}).passthrough();

/** The prompt (role `user`, once) and the answer, streamed as `delta: true` pieces (role `assistant`). */
export const MessageEventSchema = z.object({
    type: z.literal('message'),
    ...base,
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    delta: z.boolean().optional()
}).passthrough();

/** The model asked for a tool; `tool_id` is the key its `tool_result` carries. */
export const ToolUseEventSchema = z.object({
    type: z.literal('tool_use'),
    ...base,
    tool_name: z.string(),
    tool_id: z.string(),
    parameters: z.record(z.unknown())
}).passthrough();

/** A tool finished. `output` is the tool's display text (absent for some tools); `error` only with status `error`. */
export const ToolResultEventSchema = z.object({
    type: z.literal('tool_result'),
    ...base,
    tool_id: z.string(),
    status: z.enum(['success', 'error']),
    output: z.string().optional(),
    error: StreamJsonErrorSchema.optional()
}).passthrough();

/** A non-fatal problem: `warning` (e.g. a blocked step, a retried request) or `error` (quota, invalid stream, turn limit). */
export const ErrorEventSchema = z.object({
    type: z.literal('error'),
    ...base,
    severity: z.enum(['warning', 'error']),
    message: z.string()
}).passthrough();

/** Token figures of one model. */
export const ModelStreamStatsSchema = z.object({
    total_tokens: z.number(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    cached: z.number(),
    input: z.number()
}).passthrough();

/** The run's totals. `duration_ms` is 0 when the run ended through an error handler. */
export const StreamStatsSchema = ModelStreamStatsSchema.extend({
    duration_ms: z.number(),
    tool_calls: z.number(),
    models: z.record(ModelStreamStatsSchema)
}).passthrough();
export type StreamStats = z.infer<typeof StreamStatsSchema>;

/** The last event. An error result may come without `error` when an `error` event said why just before. */
export const ResultEventSchema = z.object({
    type: z.literal('result'),
    ...base,
    status: z.enum(['success', 'error']),
    error: StreamJsonErrorSchema.optional(),
    stats: StreamStatsSchema.optional()
}).passthrough();

export const StreamJsonEventSchema = z.discriminatedUnion('type', [
    InitEventSchema, MessageEventSchema, ToolUseEventSchema, ToolResultEventSchema, ErrorEventSchema, ResultEventSchema
]);
export type StreamJsonEvent = z.infer<typeof StreamJsonEventSchema>;
export type StreamJsonEventType = StreamJsonEvent['type'];
export type InitEvent = z.infer<typeof InitEventSchema>;
export type MessageEvent = z.infer<typeof MessageEventSchema>;
export type ToolUseEvent = z.infer<typeof ToolUseEventSchema>;
export type ToolResultEvent = z.infer<typeof ToolResultEventSchema>;
export type ErrorEvent = z.infer<typeof ErrorEventSchema>;
export type ResultEvent = z.infer<typeof ResultEventSchema>;

export const STREAM_JSON_EVENT_TYPES: readonly StreamJsonEventType[] = ['init', 'message', 'tool_use', 'tool_result', 'error', 'result'];

const SCHEMAS: Record<StreamJsonEventType, z.AnyZodObject> = {
    init: InitEventSchema,
    message: MessageEventSchema,
    tool_use: ToolUseEventSchema,
    tool_result: ToolResultEventSchema,
    error: ErrorEventSchema,
    result: ResultEventSchema
};

export function isStreamJsonEventType(type: unknown): type is StreamJsonEventType {
    return typeof type === 'string' && (STREAM_JSON_EVENT_TYPES as readonly string[]).includes(type);
}

/** The top-level fields of `event` its schema does not know: a newer CLI's additions, shown raw. */
export function unknownFieldsOf(event: StreamJsonEvent): Record<string, unknown> {
    const known = SCHEMAS[event.type].shape;
    return Object.fromEntries(Object.entries(event).filter(([key]) => !Object.hasOwn(known, key)));
}
