import * as http from 'http';
import { MockModelApi, MockReplyTiming } from './mock-model-api';

/** A tool call the model made, as the Chat Completions API carries it in an assistant message. */
export interface OpenAiToolCall {
    id: string;
    type: 'function';
    function: { name: string; arguments: string };
}

/** A content part of a message (`[{type: 'text', text}]` instead of a plain string). */
export interface OpenAiContentPart {
    type: string;
    text?: string;
}

/** A message of the conversation, as far as the mock needs to read it. */
export interface OpenAiMessage {
    role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
    content?: string | OpenAiContentPart[] | null;
    tool_calls?: OpenAiToolCall[];
    tool_call_id?: string;
}

/** One request the CLI sent, with the parts of its body a test reads. */
export interface OpenAiRequest {
    method: string;
    /** With the query. */
    path: string;
    model?: string;
    messages: OpenAiMessage[];
    /** The text of the conversation's `system` / `developer` messages, joined with newlines. */
    system: string;
    /** The names of the tools offered to the model. */
    tools: string[];
    stream: boolean;
    /** The bearer token of the `Authorization` header, if any. */
    apiKey?: string;
    /** The raw parsed body (undefined when there was none). */
    body?: Record<string, unknown>;
    /** Set for paths the mock does not know and for bodies it refused; they are answered 404 / 400. */
    unknown?: boolean;
}

/** One model reply, chosen from the request. */
export type MockOpenAiTurn = ({ text: string } | {
    toolCall: { name: string; args: Record<string, unknown>; id?: string };
    /** Text the model says before the tool call. */
    text?: string;
}) & MockReplyTiming;

const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

let toolCallCounter = 0;

/**
 * A local stand-in for the OpenAI Chat Completions API (`POST /v1/chat/completions`, streaming SSE
 * or plain JSON, and `GET /v1/models`), so OpenAI-compatible CLIs such as Qwen Code run offline with
 * their base URL (`OPENAI_BASE_URL=<url>/v1`) pointed here. The reply is decided by `script` from
 * the request; every request (unknown paths and refused bodies included) is kept in `requests`.
 * It listens on the loopback interface only; a body that is not a chat completions request is
 * answered 400 with the reason.
 *
 * What Qwen Code 0.24.4 sends: only streaming requests (`stream: true`, `stream_options:
 * {include_usage: true}`, `max_tokens`), message content as arrays of text parts, `null` content
 * on assistant messages that only call tools, tool results as `role: 'tool'` messages. Its first
 * user message starts with a `<system-reminder>` part (the skills list); `lastUserText` skips it.
 * Main-conversation requests offer 17 tools (`write_file`, `edit`, `read_file`, …) and a system
 * prompt starting "You are Qwen Code". Two background features send more requests with the same
 * history, so a script keyed on the last user text alone would answer them like a prompt: the
 * memory-extraction subagent (6 tools, system prompt "You are now acting as the managed memory
 * extraction subagent …") and follow-up suggestions (all 17 tools). `prepareQwenAcp` turns both off.
 */
export class MockOpenAiApi extends MockModelApi<OpenAiRequest> {

    constructor(protected readonly script: (request: OpenAiRequest) => MockOpenAiTurn) {
        super();
    }

    /** The requests of the main conversation only (the ones offering tools). */
    get conversationRequests(): OpenAiRequest[] {
        return this.requests.filter(request => MockOpenAiApi.isMainConversation(request));
    }

    protected answer(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
        const method = req.method ?? 'GET';
        const path = req.url ?? '';
        const pathname = MockOpenAiApi.pathnameOf(path);
        const request: OpenAiRequest = { method, path, messages: [], system: '', tools: [], stream: false, apiKey: MockOpenAiApi.bearerToken(req) };
        this.requests.push(request);
        if (method === 'GET' && pathname === '/v1/models') {
            MockOpenAiApi.json(res, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'mock' }] });
            return;
        }
        if (method !== 'POST' || pathname !== '/v1/chat/completions') {
            request.unknown = true;
            MockOpenAiApi.error(res, 404, 'not_found', `mock: no ${method} ${pathname}`);
            return;
        }
        const problem = MockOpenAiApi.parse(raw, request);
        if (problem) {
            request.unknown = true;
            MockOpenAiApi.error(res, 400, 'invalid_request_error', `mock: ${problem}`);
            return;
        }
        const turn = this.script(request);
        this.replyWhen(turn, res, () => request.stream ? this.stream(request, turn, res) : MockOpenAiApi.json(res, 200, this.completion(request, turn)));
    }

    protected failed(res: http.ServerResponse, error: unknown): void {
        MockOpenAiApi.error(res, 500, 'server_error', `mock: ${String(error)}`);
    }

    /** Fills `request` from a chat completions body; returns what is wrong with it, if anything. */
    protected static parse(raw: string, request: OpenAiRequest): string | undefined {
        const parsed = MockOpenAiApi.jsonObject(raw);
        if ('problem' in parsed) {
            return parsed.problem;
        }
        const fields = parsed.body;
        request.body = fields;
        if (!Array.isArray(fields.messages) || fields.messages.some(message => typeof message !== 'object' || message === null || typeof message.role !== 'string')) {
            return '"messages" must be an array of objects with a "role"';
        }
        if (fields.tools !== undefined && !Array.isArray(fields.tools)) {
            return '"tools" must be an array';
        }
        request.messages = fields.messages as OpenAiMessage[];
        request.system = request.messages.filter(message => message.role === 'system' || message.role === 'developer')
            .map(message => MockOpenAiApi.textOf(message.content)).join('\n');
        request.model = typeof fields.model === 'string' ? fields.model : undefined;
        request.stream = fields.stream === true;
        request.tools = ((fields.tools ?? []) as { function?: { name?: unknown } }[])
            .map(tool => tool?.function?.name)
            .filter((name): name is string => typeof name === 'string');
        return undefined;
    }

    protected toolCall(turn: MockOpenAiTurn): OpenAiToolCall | undefined {
        if (!('toolCall' in turn)) {
            return undefined;
        }
        return {
            id: turn.toolCall.id ?? `call_mock_${++toolCallCounter}`,
            type: 'function',
            function: { name: turn.toolCall.name, arguments: JSON.stringify(turn.toolCall.args) }
        };
    }

    protected completion(request: OpenAiRequest, turn: MockOpenAiTurn): Record<string, unknown> {
        const toolCall = this.toolCall(turn);
        return {
            id: `chatcmpl-mock-${this.requests.length}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000),
            model: request.model ?? 'mock-model',
            choices: [{
                index: 0,
                message: { role: 'assistant', content: turn.text ?? null, ...(toolCall ? { tool_calls: [toolCall] } : {}) },
                finish_reason: toolCall ? 'tool_calls' : 'stop'
            }],
            usage: USAGE
        };
    }

    protected stream(request: OpenAiRequest, turn: MockOpenAiTurn, res: http.ServerResponse): void {
        const events = MockOpenAiApi.eventStream(res);
        const base = { id: `chatcmpl-mock-${this.requests.length}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: request.model ?? 'mock-model' };
        const send = (delta: Record<string, unknown>, finishReason: string | null = null) => events.send({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
        send({ role: 'assistant', content: '' });
        if (turn.text) {
            send({ content: turn.text });
        }
        const toolCall = this.toolCall(turn);
        if (toolCall) {
            // Real servers send the name first and the arguments in pieces: the client must put them together.
            const args = toolCall.function.arguments;
            const half = Math.ceil(args.length / 2);
            send({ tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: '' } }] });
            send({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] });
            send({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] });
        }
        send({}, toolCall ? 'tool_calls' : 'stop');
        // As with `stream_options: {include_usage: true}`: a last chunk with no choices and the usage.
        events.send({ ...base, choices: [], usage: USAGE });
        events.end('[DONE]');
    }

    /** An error in OpenAI's shape (the Responses API words them the same way). */
    static error(res: http.ServerResponse, status: number, type: string, message: string): void {
        MockOpenAiApi.json(res, status, { error: { message, type, param: null, code: null } });
    }

    /**
     * True for requests of the main conversation: they offer tools and are not a subagent's (whose
     * system prompt casts the model in another role, "You are now acting as …").
     */
    static isMainConversation(request: OpenAiRequest): boolean {
        return request.tools.length > 0 && !/^\s*You are now acting as/.test(request.system);
    }

    /** The text of a message's content, parts joined with newlines. */
    static textOf(content: OpenAiMessage['content']): string {
        if (content === undefined || content === null) {
            return '';
        }
        return typeof content === 'string' ? content : content.map(part => part.type === 'text' ? part.text ?? '' : '').join('\n');
    }

    /**
     * What the user typed last: the text parts of the last user message, without the parts the CLI
     * adds (Qwen Code's `<system-reminder>` blocks; pass `ignore` for other markers).
     */
    static lastUserText(messages: OpenAiMessage[], ignore: RegExp = /^\s*<system-reminder>/): string {
        const user = [...messages].reverse().find(message => message.role === 'user');
        if (!user) {
            return '';
        }
        const parts = typeof user.content === 'string' ? [user.content]
            : (user.content ?? []).filter(part => part.type === 'text').map(part => part.text ?? '');
        return parts.filter(text => !ignore.test(text)).join('\n');
    }

    /**
     * The tool result the model has to answer, if any: the conversation ends with `tool` messages
     * (a new prompt after them means the turn moved on). The name comes from the assistant's call.
     */
    static lastToolResult(messages: OpenAiMessage[]): { toolCallId: string; name?: string; content: string } | undefined {
        const last = messages[messages.length - 1];
        if (!last || last.role !== 'tool') {
            return undefined;
        }
        const call = messages.flatMap(message => message.tool_calls ?? []).find(candidate => candidate.id === last.tool_call_id);
        return { toolCallId: last.tool_call_id ?? '', name: call?.function.name, content: MockOpenAiApi.textOf(last.content) };
    }
}
