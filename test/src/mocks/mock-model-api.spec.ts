import { expect } from 'chai';
import { MockAnthropicApi } from './mock-anthropic-api';
import { MockGeminiApi } from './mock-gemini-api';
import { MockOpenAiApi } from './mock-openai-api';
import { MockOpenAiResponsesApi } from './mock-openai-responses-api';

/** The mock model servers over real loopback HTTP: what they share (the base) and each API's own reply shape. */
describe('MockModelApi and the four mock model servers', () => {
    const started: { stop(): Promise<void> }[] = [];
    afterEach(async () => {
        await Promise.all(started.splice(0).map(mock => mock.stop()));
    });
    async function start<T extends { start(): Promise<string>; stop(): Promise<void> }>(mock: T): Promise<[T, string]> {
        started.push(mock);
        return [mock, await mock.start()];
    }
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    /** Resolves once the mock has received `count` requests. */
    async function arrived(mock: { requests: unknown[] }, count: number): Promise<void> {
        while (mock.requests.length < count) {
            await new Promise(resolve => setTimeout(resolve, 5));
        }
    }
    /** The `data:` lines of an SSE reply, parsed (`[DONE]` kept as is), with the `event:` names. */
    const frames = (text: string) => text.split('\n\n').filter(Boolean).map(frame => {
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)![1];
        return { event, data: data === '[DONE]' ? data : JSON.parse(data) };
    });

    it('Gemini: listens on loopback, streams the scripted reply as SSE and records each request with its API key', async () => {
        const [mock, url] = await start(new MockGeminiApi(contents => ({ text: `echo ${MockGeminiApi.lastUserText(contents)}` })));
        expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
        const res = await post(`${url}/v1beta/models/m:streamGenerateContent?alt=sse`,
            { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: [{ name: 'read_file' }] }] }, { 'x-goog-api-key': 'key-1' });
        expect(res.headers.get('content-type')).to.equal('text/event-stream');
        expect(frames(await res.text()).map(frame => frame.data.candidates[0].content.parts)).to.deep.equal([[{ text: 'echo hi' }]]);
        expect(mock.requests.map(({ path, tools, apiKey }) => ({ path, tools, apiKey })))
            .to.deep.equal([{ path: '/v1beta/models/m:streamGenerateContent?alt=sse', tools: ['read_file'], apiKey: 'key-1' }]);
    });

    it('Anthropic: streams text and a tool use as Messages API events; a side request (no tools) is recorded too', async () => {
        const [mock, url] = await start(new MockAnthropicApi(request => MockAnthropicApi.isMainConversation(request)
            ? { text: 'Let me', toolUse: { name: 'Write', input: { file_path: '/a' }, id: 'toolu_1' } } : MockAnthropicApi.sideAnswer(request)));
        const res = await post(`${url}/v1/messages?beta=true`, { messages: [{ role: 'user', content: 'write it' }], tools: [{ name: 'Write' }], stream: true });
        const events = frames(await res.text());
        expect(events.map(frame => frame.event)).to.deep.equal(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop',
            'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
        expect(events[5].data.delta).to.deep.equal({ type: 'input_json_delta', partial_json: '{"file_path":"/a"}' });
        expect(await (await post(`${url}/v1/messages`, { messages: [], system: 'answer in json' })).json()).to.deep.include({ stop_reason: 'end_turn' });
        expect(mock.conversationRequests).to.have.length(1);
        expect(mock.requests).to.have.length(2);
    });

    it('OpenAI chat completions: streams chunks ending with usage and [DONE]; a body that is not a request is answered 400 and recorded', async () => {
        const [mock, url] = await start(new MockOpenAiApi(request => ({ text: `echo ${MockOpenAiApi.lastUserText(request.messages)}` })));
        const res = await post(`${url}/v1/chat/completions`, { messages: [{ role: 'user', content: 'hi' }], stream: true }, { authorization: 'Bearer sk-1' });
        const chunks = frames(await res.text()).map(frame => frame.data);
        expect(chunks.slice(0, 3).map(chunk => chunk.choices[0].delta)).to.deep.equal([{ role: 'assistant', content: '' }, { content: 'echo hi' }, {}]);
        expect(chunks[3].usage).to.deep.equal({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
        expect(chunks[4]).to.equal('[DONE]');
        const refused = await post(`${url}/v1/chat/completions`, '[1]');
        expect(refused.status).to.equal(400);
        expect(await refused.json()).to.deep.equal({ error: { message: 'mock: the body is not a JSON object', type: 'invalid_request_error', param: null, code: null } });
        expect(mock.requests.map(({ apiKey, unknown }) => ({ apiKey, unknown }))).to.deep.equal([{ apiKey: 'sk-1', unknown: undefined }, { apiKey: undefined, unknown: true }]);
    });

    it('OpenAI Responses: streams numbered events, a patch as a call of the apply_patch tool offered; an unknown path is answered 404', async () => {
        const [mock, url] = await start(new MockOpenAiResponsesApi(() => ({ patch: '*** Begin Patch\n*** End Patch', callId: 'call_p' })));
        const res = await post(`${url}/v1/responses`, { input: [], tools: [{ type: 'custom', name: 'apply_patch' }], stream: true },
            { 'x-codex-turn-metadata': JSON.stringify({ request_kind: 'turn' }) });
        const events = frames(await res.text());
        expect(events.map(frame => [frame.event, frame.data.sequence_number])).to.deep.equal([
            ['response.created', 0], ['response.output_item.added', 1], ['response.output_item.done', 2], ['response.completed', 3]]);
        expect(events[1].data.item).to.deep.include({ type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch' });
        expect((await fetch(`${url}/v1/responses`)).status).to.equal(404);
        expect(mock.conversationRequests).to.have.length(1);
    });

    it('answers when the turn says: once `after` settles, then `delayMs` later', async () => {
        let settle!: () => void;
        const after = new Promise<void>(resolve => settle = resolve);
        const [mock, url] = await start(new MockOpenAiApi(() => ({ text: 'thought', after, delayMs: 50 })));
        let answered = false;
        const reply = post(`${url}/v1/chat/completions`, { messages: [] }).then(res => {
            answered = true;
            return res.json();
        });
        await arrived(mock, 1);
        const asked = Date.now();
        // Nothing to await here: the reply must not come while `after` is pending.
        await new Promise(resolve => setTimeout(resolve, 100));
        expect(answered, 'answered before `after` settled').to.equal(false);
        const settled = Date.now();
        settle();
        expect((await reply).choices[0].message.content).to.equal('thought');
        expect(Date.now() - settled).to.be.at.least(45);
        expect(Date.now() - asked).to.be.at.least(145);
    });

    it('answers a request whose script throws with 500 in the API\'s error shape, and keeps serving', async () => {
        let calls = 0;
        const fail = () => {
            if (calls++ === 0) {
                throw new Error('scripted failure');
            }
            return { text: 'fine' };
        };
        const [, gemini] = await start(new MockGeminiApi(fail));
        const failed = await post(`${gemini}/v1beta/models/m:generateContent`, { contents: [] });
        expect(failed.status).to.equal(500);
        expect(await failed.json()).to.deep.equal({ error: { code: 500, message: 'mock: Error: scripted failure', status: 'INTERNAL' } });
        expect((await post(`${gemini}/v1beta/models/m:generateContent`, { contents: [] })).status).to.equal(200);
        calls = 0;
        const [, anthropic] = await start(new MockAnthropicApi(fail));
        const failedToo = await post(`${anthropic}/v1/messages`, { messages: [] });
        expect(failedToo.status).to.equal(500);
        expect(await failedToo.json()).to.deep.equal({ type: 'error', error: { type: 'api_error', message: 'Error: scripted failure' } });
    });

    it('answers 500 at once when the turn\'s `after` fails, instead of never', async () => {
        const [, url] = await start(new MockOpenAiApi(() => ({ text: 'never', after: Promise.reject(new Error('the test gave up')) })));
        const failed = await post(`${url}/v1/chat/completions`, { messages: [] });
        expect(failed.status).to.equal(500);
    });

    it('stop() ends a connection whose reply is still pending, at once', async () => {
        for (const mock of [new MockGeminiApi(() => ({ text: 'never', after: new Promise(() => undefined) })),
            new MockAnthropicApi(() => ({ text: 'never', after: new Promise(() => undefined) }))]) {
            const url = await mock.start();
            const path = mock instanceof MockGeminiApi ? '/v1beta/models/m:generateContent' : '/v1/messages';
            const pending = post(`${url}${path}`, { contents: [], messages: [] }).then(() => 'answered', () => 'connection closed');
            await arrived(mock, 1);
            const stopping = Date.now();
            await mock.stop();
            expect(Date.now() - stopping).to.be.lessThan(1000);
            expect(await pending).to.equal('connection closed');
        }
    });
});
