import * as http from 'http';
import { MockModelApi, MockReplyTiming } from './mock-model-api';
import { MockOpenAiApi } from './mock-openai-api';

/** A content part of a Responses API message (`input_text`, `output_text`, `input_image`, …). */
export interface ResponsesContentPart {
    type: string;
    text?: string;
}

/**
 * One item of a request's `input`, as far as the mock reads it: a `message` (role and content
 * parts), a tool call the model made earlier (`custom_tool_call` with `input`, `function_call`
 * with `arguments`) or its result (`custom_tool_call_output` / `function_call_output`).
 */
export interface ResponsesInputItem {
    type?: string;
    role?: string;
    content?: string | ResponsesContentPart[];
    call_id?: string;
    name?: string;
    input?: string;
    arguments?: string;
    output?: string | ResponsesContentPart[];
}

/** A tool offered to the model: `function` and `custom` tools have a name, built-ins (`web_search`) may not. */
export interface ResponsesTool {
    type: string;
    name?: string;
}

/** One request the CLI sent, with the parts of its body a test reads. */
export interface ResponsesRequest {
    method: string;
    /** With the query. */
    path: string;
    model?: string;
    /** The body's `instructions` (Codex: its system prompt, "You are Codex, …"). */
    instructions: string;
    input: ResponsesInputItem[];
    tools: ResponsesTool[];
    stream: boolean;
    /** The bearer token of the `Authorization` header, if any. */
    apiKey?: string;
    /**
     * What Codex sends the request for, from its `x-codex-turn-metadata` header: `turn` for the
     * conversation; Codex also knows `prewarm`, `compaction`, `review`, `memory_consolidation`, ….
     */
    requestKind?: string;
    /** The parsed `x-codex-turn-metadata` header (session, turn and thread ids, `subagent_kind`, …). */
    turnMetadata?: Record<string, unknown>;
    /** The raw parsed body (undefined when there was none). */
    body?: Record<string, unknown>;
    /** Set for paths the mock does not know and for bodies it refused; they are answered 404 / 400. */
    unknown?: boolean;
}

/** One model reply, chosen from the request. */
export type MockResponsesTurn = ({ text: string } | {
    /**
     * An apply_patch patch (`*** Begin Patch` … `*** End Patch`, paths relative to the session's
     * cwd), sent as a call of the request's apply_patch tool (see `MockOpenAiResponsesApi`).
     */
    patch: string;
    /** Text the model says before the tool call. */
    text?: string;
    callId?: string;
} | {
    /** A call of one of the request's function tools by name (Codex's request_user_input, …), with its arguments. */
    functionCall: { name: string; arguments: Record<string, unknown> };
    text?: string;
    callId?: string;
}) & MockReplyTiming;

const USAGE = {
    input_tokens: 11, input_tokens_details: { cached_tokens: 0 },
    output_tokens: 7, output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 18
};

/** The markers (in Codex 0.137's binary) of the parts Codex adds to the conversation as user messages of its own. */
const CODEX_CONTEXT_PART = /^\s*(<environment_context>|<permissions instructions>|# AGENTS\.md instructions|<INSTRUCTIONS>|<skills_instructions>|<turn_aborted>|<user_shell_command>|<subagent_notification>)/;

let callCounter = 0;

/**
 * A local stand-in for the OpenAI Responses API (`POST /v1/responses`, streaming SSE frames
 * `event: <type>\ndata: <json>\n\n` or plain JSON), so Codex (through the `codex-acp` adapter) runs
 * offline with a custom model provider whose `base_url` is `<url>/v1` (see `prepareCodexAcp`). The
 * reply is decided by `script` from the request; every request (unknown paths and refused bodies
 * included) is kept in `requests`. It listens on the loopback interface only; a body that is not a
 * Responses request is answered 400 with the reason.
 *
 * What codex-acp 0.16.0 (Codex 0.137) sends: only streaming requests, `instructions` starting
 * "You are Codex", an `input` that repeats the whole conversation: a developer message (permissions
 * instructions), a user message with `<environment_context>`, then the user's prompts, the
 * assistant's messages, tool calls and their outputs. Eleven tools, among them `exec_command` and a
 * `custom` (freeform) tool `apply_patch`: a `patch` turn calls that one (`custom_tool_call`), or,
 * when it is not offered, the `function` tool apply_patch or else `exec_command` with an
 * `apply_patch <<'EOF'` heredoc, which Codex intercepts the same way. Codex writes the files itself
 * (after `session/request_permission` under approval policy `untrusted`), then sends the next
 * request ending with a `custom_tool_call_output` ("Success. Updated the following files: …").
 * With a custom provider it sent no requests but the conversation's (`requestKind` 'turn'); the
 * built-in OpenAI provider also tries WebSockets (`GET /v1/responses`, 404 here) first.
 */
export class MockOpenAiResponsesApi extends MockModelApi<ResponsesRequest> {

    constructor(protected readonly script: (request: ResponsesRequest) => MockResponsesTurn) {
        super();
    }

    /** The requests of the main conversation only. */
    get conversationRequests(): ResponsesRequest[] {
        return this.requests.filter(request => MockOpenAiResponsesApi.isMainConversation(request));
    }

    protected answer(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
        const method = req.method ?? 'GET';
        const path = req.url ?? '';
        const pathname = MockOpenAiResponsesApi.pathnameOf(path);
        const request: ResponsesRequest = {
            method, path, instructions: '', input: [], tools: [], stream: false, apiKey: MockOpenAiResponsesApi.bearerToken(req),
            ...MockOpenAiResponsesApi.turnMetadata(req.headers['x-codex-turn-metadata'])
        };
        this.requests.push(request);
        if (method !== 'POST' || pathname !== '/v1/responses') {
            request.unknown = true;
            MockOpenAiApi.error(res, 404, 'not_found', `mock: no ${method} ${pathname}`);
            return;
        }
        const problem = MockOpenAiResponsesApi.parse(raw, request);
        if (problem) {
            request.unknown = true;
            MockOpenAiApi.error(res, 400, 'invalid_request_error', `mock: ${problem}`);
            return;
        }
        const turn = this.script(request);
        this.replyWhen(turn, res, () => {
            const id = `resp_mock_${this.requests.length}`;
            const output = this.output(request, turn);
            if (request.stream) {
                MockOpenAiResponsesApi.stream(id, request, output, res);
            } else {
                MockOpenAiResponsesApi.json(res, 200, MockOpenAiResponsesApi.response(id, request, 'completed', output));
            }
        });
    }

    protected failed(res: http.ServerResponse, error: unknown): void {
        MockOpenAiApi.error(res, 500, 'server_error', `mock: ${String(error)}`);
    }

    /** The `request_kind` and the rest of Codex's `x-codex-turn-metadata` header, when it is a JSON object. */
    protected static turnMetadata(header: string | string[] | undefined): Pick<ResponsesRequest, 'requestKind' | 'turnMetadata'> {
        if (typeof header !== 'string') {
            return {};
        }
        try {
            const metadata: unknown = JSON.parse(header);
            if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
                return {};
            }
            const kind = (metadata as Record<string, unknown>).request_kind;
            return { turnMetadata: metadata as Record<string, unknown>, requestKind: typeof kind === 'string' ? kind : undefined };
        } catch {
            return {};
        }
    }

    /** Fills `request` from a Responses body; returns what is wrong with it, if anything. */
    protected static parse(raw: string, request: ResponsesRequest): string | undefined {
        const parsed = MockOpenAiResponsesApi.jsonObject(raw);
        if ('problem' in parsed) {
            return parsed.problem;
        }
        const fields = parsed.body;
        request.body = fields;
        if (!Array.isArray(fields.input) || fields.input.some(item => typeof item !== 'object' || item === null || Array.isArray(item))) {
            return '"input" must be an array of objects';
        }
        if (fields.tools !== undefined && (!Array.isArray(fields.tools)
            || fields.tools.some(tool => typeof tool !== 'object' || tool === null || typeof tool.type !== 'string'))) {
            return '"tools" must be an array of objects with a "type"';
        }
        if (fields.instructions !== undefined && typeof fields.instructions !== 'string') {
            return '"instructions" must be a string';
        }
        request.input = fields.input as ResponsesInputItem[];
        request.instructions = fields.instructions ?? '';
        request.model = typeof fields.model === 'string' ? fields.model : undefined;
        request.stream = fields.stream === true;
        request.tools = ((fields.tools ?? []) as { type: string; name?: unknown }[])
            .map(tool => typeof tool.name === 'string' ? { type: tool.type, name: tool.name } : { type: tool.type });
        return undefined;
    }

    /** The output items of a turn: the message (if any text), then the tool call (if any). */
    protected output(request: ResponsesRequest, turn: MockResponsesTurn): Record<string, unknown>[] {
        const items: Record<string, unknown>[] = [];
        const n = this.requests.length;
        if (turn.text) {
            items.push({
                type: 'message', id: `msg_mock_${n}`, role: 'assistant', status: 'completed',
                content: [{ type: 'output_text', text: turn.text, annotations: [] }]
            });
        }
        if ('patch' in turn) {
            items.push(MockOpenAiResponsesApi.applyPatchCall(request.tools, turn.callId ?? `call_mock_${++callCounter}`, turn.patch));
        }
        if ('functionCall' in turn) {
            const callId = turn.callId ?? `call_mock_${++callCounter}`;
            items.push({
                type: 'function_call', id: `fc_${callId}`, status: 'completed', call_id: callId, name: turn.functionCall.name,
                arguments: JSON.stringify(turn.functionCall.arguments)
            });
        }
        return items;
    }

    /** The patch as a call of the apply_patch tool the request offers, in that tool's shape. */
    static applyPatchCall(tools: ResponsesTool[], callId: string, patch: string): Record<string, unknown> {
        const tool = tools.find(candidate => candidate.name === 'apply_patch');
        if (tool?.type === 'custom') {
            return { type: 'custom_tool_call', id: `ctc_${callId}`, status: 'completed', call_id: callId, name: 'apply_patch', input: patch };
        }
        if (tool?.type === 'function') {
            return { type: 'function_call', id: `fc_${callId}`, status: 'completed', call_id: callId, name: 'apply_patch', arguments: JSON.stringify({ input: patch }) };
        }
        // Codex intercepts an `apply_patch` heredoc run through its shell tool and applies it itself.
        return {
            type: 'function_call', id: `fc_${callId}`, status: 'completed', call_id: callId, name: 'exec_command',
            arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch}\nEOF\n` })
        };
    }

    protected static response(id: string, request: ResponsesRequest, status: string, output: Record<string, unknown>[]): Record<string, unknown> {
        return {
            id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model: request.model ?? 'mock-model', output,
            ...(status === 'completed' ? { usage: USAGE } : {})
        };
    }

    protected static stream(id: string, request: ResponsesRequest, output: Record<string, unknown>[], res: http.ServerResponse): void {
        const events = MockOpenAiResponsesApi.eventStream(res);
        let sequence = 0;
        const send = (type: string, fields: Record<string, unknown>) => events.send({ type, sequence_number: sequence++, ...fields }, type);
        send('response.created', { response: MockOpenAiResponsesApi.response(id, request, 'in_progress', []) });
        output.forEach((item, index) => {
            if (item.type !== 'message') {
                send('response.output_item.added', { output_index: index, item });
                send('response.output_item.done', { output_index: index, item });
                return;
            }
            const text = (item.content as ResponsesContentPart[])[0].text ?? '';
            const at = { output_index: index, item_id: item.id, content_index: 0 };
            send('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } });
            send('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
            // Real servers send the text in pieces: the client must put them together.
            const half = Math.ceil(text.length / 2);
            send('response.output_text.delta', { ...at, delta: text.slice(0, half) });
            send('response.output_text.delta', { ...at, delta: text.slice(half) });
            send('response.output_text.done', { ...at, text });
            send('response.content_part.done', { ...at, part: { type: 'output_text', text, annotations: [] } });
            send('response.output_item.done', { output_index: index, item });
        });
        send('response.completed', { response: MockOpenAiResponsesApi.response(id, request, 'completed', output) });
        events.end();
    }

    /**
     * True for requests of the main conversation: Codex marks them `request_kind: 'turn'` (without a
     * `subagent_kind`); a request without that header counts when it offers tools.
     */
    static isMainConversation(request: ResponsesRequest): boolean {
        if (request.unknown) {
            return false;
        }
        if (request.requestKind === undefined) {
            return request.tools.length > 0;
        }
        return request.requestKind === 'turn' && request.turnMetadata?.subagent_kind === undefined;
    }

    /** The text of a message's content or a tool output, text parts joined with newlines. */
    static textOf(content: ResponsesInputItem['content']): string {
        if (content === undefined) {
            return '';
        }
        return typeof content === 'string' ? content : content.map(part => typeof part.text === 'string' ? part.text : '').join('\n');
    }

    /** The text parts of a user message that the user typed, without the ones matching `ignore`. */
    protected static typedText(item: ResponsesInputItem, ignore: RegExp): string | undefined {
        if ((item.type !== undefined && item.type !== 'message') || item.role !== 'user') {
            return undefined;
        }
        const parts = typeof item.content === 'string' ? [item.content]
            : (item.content ?? []).filter(part => part.type === 'input_text' || part.type === 'text').map(part => part.text ?? '');
        const typed = parts.filter(text => !ignore.test(text));
        return typed.length ? typed.join('\n') : undefined;
    }

    /**
     * What the user typed last: the text parts of the last user message, without the messages and
     * parts Codex adds (`<environment_context>`, AGENTS.md instructions, …; pass `ignore` for others).
     */
    static lastUserText(input: ResponsesInputItem[], ignore: RegExp = CODEX_CONTEXT_PART): string {
        for (let i = input.length - 1; i >= 0; i--) {
            const typed = MockOpenAiResponsesApi.typedText(input[i], ignore);
            if (typed !== undefined) {
                return typed;
            }
        }
        return '';
    }

    /**
     * The tool result the model has to answer, if any: the last `custom_tool_call_output` /
     * `function_call_output` since the user's last prompt (a new prompt means the turn moved on).
     * The name comes from the model's call with the same `call_id`.
     */
    static lastToolOutput(input: ResponsesInputItem[], ignore: RegExp = CODEX_CONTEXT_PART): { callId: string; name?: string; output: string } | undefined {
        for (let i = input.length - 1; i >= 0; i--) {
            const item = input[i];
            if (MockOpenAiResponsesApi.typedText(item, ignore) !== undefined) {
                return undefined;
            }
            if (item.type === 'custom_tool_call_output' || item.type === 'function_call_output') {
                const call = input.find(candidate => (candidate.type === 'custom_tool_call' || candidate.type === 'function_call') && candidate.call_id === item.call_id);
                return { callId: item.call_id ?? '', name: call?.name, output: MockOpenAiResponsesApi.textOf(item.output) };
            }
        }
        return undefined;
    }
}
