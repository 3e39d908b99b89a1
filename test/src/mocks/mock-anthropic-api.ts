import * as http from 'http';
import { MockModelApi, MockReplyTiming } from './mock-model-api';

/** A content block of the Messages API, as far as the mock needs to read it. */
export interface AnthropicBlock {
    type: string;
    text?: string;
    id?: string;
    name?: string;
    input?: unknown;
    tool_use_id?: string;
    content?: string | AnthropicBlock[];
    is_error?: boolean;
}

export interface AnthropicMessage {
    /** Claude Code 2.1.332 also puts `system` messages into `messages` (environment, IDE selection). */
    role: 'user' | 'assistant' | 'system';
    content: string | AnthropicBlock[];
}

/** One request the CLI sent, with the parts of its body a test reads. */
export interface AnthropicRequest {
    method: string;
    /** With the query, e.g. `/v1/messages?beta=true`. */
    path: string;
    model?: string;
    messages: AnthropicMessage[];
    /** The system prompt's text blocks, joined with newlines. */
    system: string;
    /** The names of the tools offered to the model. */
    tools: string[];
    stream: boolean;
    maxTokens?: number;
    /** The raw parsed body (undefined when it was not JSON). */
    body?: Record<string, unknown>;
    /** Set for paths the mock does not know; they are answered 404. */
    unknown?: boolean;
}

/** One model reply, chosen from the request. */
export type MockAnthropicTurn = ({ text: string } | {
    toolUse: { name: string; input: Record<string, unknown>; id?: string };
    /** Text the model says before the tool use. */
    text?: string;
}) & MockReplyTiming;

let toolUseCounter = 0;

/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages?beta=true`, streaming SSE),
 * so the real Claude Code CLI runs offline with `ANTHROPIC_BASE_URL` pointed here. The reply is
 * decided by `script` from the request; every request (unknown paths included) is kept in `requests`.
 *
 * Telling the main conversation from side requests: every main-conversation request offers the
 * tool set (Agent, Bash, Edit, Read, Write, … 13 tools with 2.1.332) and a system prompt starting
 * with `x-anthropic-billing-header: …` / "You are Claude Code". With 2.1.332 offline (the env of
 * `prepareClaudeCode`) no side model requests were observed at all, only `HEAD /api/hello` (a
 * connectivity check) when `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC` is unset. Other versions send
 * small-model calls (quota probe with `max_tokens: 1`, title/topic generation) that offer **no
 * tools**: `MockAnthropicApi.isMainConversation(request)` tells them apart; answer them with
 * `MockAnthropicApi.sideAnswer(request)`.
 *
 * The CLI puts context into `messages` as `role: 'system'` messages (environment, IDE selection):
 * read it with `contextText` / `selections`, the typed prompt with `lastUserText`.
 */
export class MockAnthropicApi extends MockModelApi<AnthropicRequest> {

    constructor(protected readonly script: (request: AnthropicRequest) => MockAnthropicTurn) {
        super();
    }

    /** The requests of the main conversation only (the ones offering tools). */
    get conversationRequests(): AnthropicRequest[] {
        return this.requests.filter(request => MockAnthropicApi.isMainConversation(request));
    }

    protected answer(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
        const method = req.method ?? 'GET';
        const path = req.url ?? '';
        let body: Record<string, unknown> | undefined;
        try {
            body = raw ? JSON.parse(raw) : undefined;
        } catch {
            body = undefined;
        }
        const system = body?.system;
        const request: AnthropicRequest = {
            method, path,
            model: body?.model as string | undefined,
            messages: (body?.messages as AnthropicMessage[] | undefined) ?? [],
            system: typeof system === 'string' ? system
                : Array.isArray(system) ? system.map((block: AnthropicBlock) => block.text ?? '').join('\n') : '',
            tools: ((body?.tools as { name: string }[] | undefined) ?? []).map(tool => tool.name),
            stream: body?.stream === true,
            maxTokens: body?.max_tokens as number | undefined,
            body
        };
        const pathname = path.split('?')[0];
        const json = (status: number, value: unknown) => MockAnthropicApi.json(res, status, value);
        if (method === 'POST' && pathname === '/v1/messages/count_tokens') {
            this.requests.push(request);
            json(200, { input_tokens: 11 });
            return;
        }
        if (method === 'GET' && pathname.startsWith('/v1/models')) {
            this.requests.push(request);
            json(200, { data: [], has_more: false, first_id: null, last_id: null });
            return;
        }
        if (method === 'HEAD' || (method === 'GET' && (pathname === '/' || pathname === ''))) {
            // Connectivity checks.
            this.requests.push(request);
            res.writeHead(200).end();
            return;
        }
        if (method !== 'POST' || pathname !== '/v1/messages') {
            request.unknown = true;
            this.requests.push(request);
            json(404, { type: 'error', error: { type: 'not_found_error', message: `mock: no ${method} ${pathname}` } });
            return;
        }
        this.requests.push(request);
        const turn = this.script(request);
        this.replyWhen(turn, res, () => request.stream ? this.stream(request, turn, res) : json(200, this.message(request, turn)));
    }

    protected failed(res: http.ServerResponse, error: unknown): void {
        MockAnthropicApi.json(res, 500, { type: 'error', error: { type: 'api_error', message: String(error) } });
    }

    protected blocks(turn: MockAnthropicTurn): AnthropicBlock[] {
        const blocks: AnthropicBlock[] = [];
        if (turn.text) {
            blocks.push({ type: 'text', text: turn.text });
        }
        if ('toolUse' in turn) {
            blocks.push({ type: 'tool_use', id: turn.toolUse.id ?? `toolu_mock_${++toolUseCounter}`, name: turn.toolUse.name, input: turn.toolUse.input });
        }
        return blocks;
    }

    protected message(request: AnthropicRequest, turn: MockAnthropicTurn, content = this.blocks(turn)): Record<string, unknown> {
        return {
            id: `msg_mock_${this.requests.length}`, type: 'message', role: 'assistant',
            model: request.model ?? 'claude-mock', content,
            stop_reason: 'toolUse' in turn ? 'tool_use' : 'end_turn', stop_sequence: null,
            usage: { input_tokens: 11, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
        };
    }

    protected stream(request: AnthropicRequest, turn: MockAnthropicTurn, res: http.ServerResponse): void {
        const events = MockAnthropicApi.eventStream(res);
        const send = (event: string, data: unknown) => events.send(data, event);
        const blocks = this.blocks(turn);
        const message = this.message(request, turn, blocks);
        send('message_start', {
            type: 'message_start',
            message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 11, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } }
        });
        blocks.forEach((block, index) => {
            if (block.type === 'text') {
                send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
                send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
            } else {
                send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
                send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
            }
            send('content_block_stop', { type: 'content_block_stop', index });
        });
        send('message_delta', { type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 7 } });
        send('message_stop', { type: 'message_stop' });
        events.end();
    }

    /** True for requests of the main conversation: they offer tools; side requests (quota, titles) do not. */
    static isMainConversation(request: AnthropicRequest): boolean {
        return request.tools.length > 0;
    }

    /** A harmless answer for side requests (the start-up quota probe, title/topic generation). */
    static sideAnswer(request: AnthropicRequest): MockAnthropicTurn {
        // Topic detection asks for JSON; anything else takes plain text.
        return /json/i.test(request.system) ? { text: '{"isNewTopic": false, "title": null}' } : { text: 'ok' };
    }

    /** The text blocks of a message's content. */
    static textOf(content: string | AnthropicBlock[] | undefined): string {
        if (content === undefined) {
            return '';
        }
        return typeof content === 'string' ? content : content.map(block => block.type === 'text' ? block.text ?? '' : '').join('\n');
    }

    /**
     * Whether a text block of a user message is something the user typed, not a marker the CLI adds
     * (`[Request interrupted by user for tool use]` after a rejected edit, `<system-reminder>` blocks).
     */
    static isPromptText(text: string): boolean {
        return !/^\s*(\[Request interrupted|<system-reminder>)/.test(text);
    }

    /** The prompt text blocks of a user message. */
    static promptBlocks(message: AnthropicMessage | undefined): string[] {
        if (!message) {
            return [];
        }
        const texts = typeof message.content === 'string' ? [message.content]
            : message.content.filter(block => block.type === 'text').map(block => block.text ?? '');
        return texts.filter(text => MockAnthropicApi.isPromptText(text));
    }

    /**
     * What the user typed last: the prompt blocks of the last user message that has some. A prompt
     * typed after a rejected edit shares its message with that edit's tool_result.
     */
    static lastUserText(request: AnthropicRequest): string {
        const user = [...request.messages].reverse().find(message => message.role === 'user' && MockAnthropicApi.promptBlocks(message).length > 0);
        return MockAnthropicApi.promptBlocks(user).join('\n');
    }

    /**
     * The context the CLI adds around the prompt: the text of the `system` messages inside
     * `messages` and of `<system-reminder>` blocks. The IDE selection shows up here as
     * "The user selected the lines 2 to 3 from /abs/file.txt:\n<text>\n\nThis may or may not be
     * related to the current task." (1-based, inclusive line numbers).
     */
    static contextText(request: AnthropicRequest): string {
        return request.messages.flatMap(message => {
            if (message.role === 'system') {
                return [MockAnthropicApi.textOf(message.content)];
            }
            const texts = typeof message.content === 'string' ? [message.content]
                : message.content.filter(block => block.type === 'text').map(block => block.text ?? '');
            return message.role === 'user' ? texts.filter(text => /^\s*<system-reminder>/.test(text)) : [];
        }).join('\n');
    }

    /** The IDE selections the conversation mentions, oldest first, as the CLI words them. */
    static selections(request: AnthropicRequest): { file: string; startLine: number; endLine: number; text: string }[] {
        const pattern = /The user selected the lines (\d+) to (\d+) from (.+?):\n([\s\S]*?)\n\nThis may or may not be related to the current task\./g;
        return [...MockAnthropicApi.contextText(request).matchAll(pattern)]
            .map(match => ({ file: match[3], startLine: Number(match[1]), endLine: Number(match[2]), text: match[4] }));
    }

    /**
     * The tool result the model has to answer, if any: the last non-system message is a user
     * message holding a tool_result and no new prompt. (After a rejected edit the turn ends; its
     * `is_error` tool_result travels with the next prompt, and this returns undefined then.)
     */
    static lastToolResult(request: AnthropicRequest): { toolUseId: string; name?: string; content: string; isError: boolean } | undefined {
        const last = [...request.messages].reverse().find(message => message.role !== 'system');
        if (!last || last.role !== 'user' || typeof last.content === 'string' || MockAnthropicApi.promptBlocks(last).length > 0) {
            return undefined;
        }
        const result = [...last.content].reverse().find(block => block.type === 'tool_result');
        if (!result) {
            return undefined;
        }
        const toolUse = request.messages.flatMap(message => typeof message.content === 'string' ? [] : message.content)
            .find(block => block.type === 'tool_use' && block.id === result.tool_use_id);
        return {
            toolUseId: result.tool_use_id ?? '',
            name: toolUse?.name,
            content: MockAnthropicApi.textOf(result.content),
            isError: result.is_error === true
        };
    }
}
