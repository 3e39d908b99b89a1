import * as http from 'http';
import { AddressInfo } from 'net';

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
}) & {
    /** Answer this late, so a test can watch the client while the model "thinks". */
    delayMs?: number;
    /** Answer only once this settles: the test decides when the model has "thought" enough. */
    after?: Promise<unknown>;
};

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
export class MockOpenAiApi {
    protected server?: http.Server;
    readonly requests: OpenAiRequest[] = [];

    constructor(protected readonly script: (request: OpenAiRequest) => MockOpenAiTurn) { }

    /** The server's origin, without `/v1` (the CLIs want `${url}/v1` as their base URL). */
    get url(): string {
        return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    }

    /** The requests of the main conversation only (the ones offering tools). */
    get conversationRequests(): OpenAiRequest[] {
        return this.requests.filter(request => MockOpenAiApi.isMainConversation(request));
    }

    async start(): Promise<string> {
        this.server = http.createServer((req, res) => {
            let body = '';
            req.setEncoding('utf8');
            req.on('data', chunk => body += chunk);
            req.on('end', () => {
                try {
                    this.answer(req, body, res);
                } catch (error) {
                    MockOpenAiApi.error(res, 500, 'server_error', `mock: ${String(error)}`);
                }
            });
        });
        await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve));
        return this.url;
    }

    protected answer(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
        const method = req.method ?? 'GET';
        const path = req.url ?? '';
        const pathname = path.split('?')[0].replace(/\/+$/, '');
        const authorization = req.headers.authorization;
        const request: OpenAiRequest = {
            method, path, messages: [], system: '', tools: [], stream: false,
            apiKey: authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined
        };
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
        const reply = () => {
            if (res.destroyed) {
                return;
            }
            if (request.stream) {
                this.stream(request, turn, res);
            } else {
                MockOpenAiApi.json(res, 200, this.completion(request, turn));
            }
        };
        if (turn.delayMs || turn.after) {
            void Promise.resolve(turn.after).then(() => setTimeout(reply, turn.delayMs ?? 0));
        } else {
            reply();
        }
    }

    /** Fills `request` from a chat completions body; returns what is wrong with it, if anything. */
    protected static parse(raw: string, request: OpenAiRequest): string | undefined {
        let body: unknown;
        try {
            body = JSON.parse(raw);
        } catch (error) {
            return `the body is not JSON (${error instanceof Error ? error.message : String(error)})`;
        }
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
            return 'the body is not a JSON object';
        }
        const fields = body as Record<string, unknown>;
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
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'Connection': 'keep-alive' });
        const base = { id: `chatcmpl-mock-${this.requests.length}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: request.model ?? 'mock-model' };
        const send = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) =>
            res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
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
        res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: USAGE })}\n\n`);
        res.end('data: [DONE]\n\n');
    }

    protected static json(res: http.ServerResponse, status: number, value: unknown): void {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
    }

    protected static error(res: http.ServerResponse, status: number, type: string, message: string): void {
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

    async stop(): Promise<void> {
        await new Promise<void>(resolve => {
            if (!this.server) {
                resolve();
                return;
            }
            this.server.close(() => resolve());
            // A CLI keeps connections alive: close them, or `close` waits for their timeout.
            this.server.closeAllConnections();
        });
    }
}
