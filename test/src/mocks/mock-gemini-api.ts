import * as http from 'http';
import { AddressInfo } from 'net';

interface Part { text?: string; functionCall?: { name: string; args: unknown }; functionResponse?: { name: string; response: unknown } }
interface Content { role: string; parts: Part[] }

/** One model reply, chosen from the conversation so far. */
export type MockTurn = ({ text: string } | { functionCall: { name: string; args: Record<string, unknown> } }) & {
    /** Answer this late, so a test can watch the client while the model "thinks". */
    delayMs?: number;
    /** Answer only once this settles: the test decides when the model has "thought" enough. */
    after?: Promise<unknown>;
};

/**
 * A local stand-in for the Gemini REST API (`:streamGenerateContent?alt=sse`), so the real Gemini
 * CLI runs offline with `GOOGLE_GEMINI_BASE_URL` pointed here. The reply is decided by `script`
 * from the request's contents; every request is kept for the test to inspect.
 */
export class MockGeminiApi {
    protected server?: http.Server;
    /** Every request: its path, its conversation, the names of the tools it offered the model, and when it arrived (epoch ms). */
    readonly requests: { path: string; contents: Content[]; tools: string[]; apiKey?: string; at: number }[] = [];

    constructor(protected readonly script: (contents: Content[]) => MockTurn) { }

    get url(): string {
        return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    }

    async start(): Promise<string> {
        this.server = http.createServer((req, res) => {
            let body = '';
            req.on('data', chunk => body += chunk);
            req.on('end', () => this.answer(req.url ?? '', body, res, req.headers['x-goog-api-key'] as string | undefined));
        });
        await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve));
        return this.url;
    }

    protected answer(path: string, body: string, res: http.ServerResponse, apiKey?: string): void {
        let contents: Content[] = [];
        let tools: string[] = [];
        try {
            const parsed = JSON.parse(body);
            contents = parsed.contents ?? [];
            tools = (parsed.tools ?? []).flatMap((group: { functionDeclarations?: { name: string }[] }) => (group.functionDeclarations ?? []).map(declaration => declaration.name));
        } catch {
            // countTokens and the like may have other bodies.
        }
        this.requests.push({ path, contents, tools, apiKey, at: performance.timeOrigin + performance.now() });
        const usageMetadata = { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 };
        if (path.includes(':countTokens')) {
            res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ totalTokens: 11 }));
            return;
        }
        const turn = this.script(contents);
        const parts: Part[] = 'text' in turn ? [{ text: turn.text }] : [{ functionCall: turn.functionCall }];
        const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata };
        const reply = () => {
            if (path.includes(':streamGenerateContent')) {
                res.writeHead(200, { 'Content-Type': 'text/event-stream' });
                res.end(`data: ${JSON.stringify(chunk)}\n\n`);
            } else {
                res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(chunk));
            }
        };
        if (turn.delayMs || turn.after) {
            void Promise.resolve(turn.after).then(() => setTimeout(reply, turn.delayMs ?? 0));
        } else {
            reply();
        }
    }

    /** The text of the last user turn that is not a tool result. */
    static lastUserText(contents: Content[]): string {
        const user = [...contents].reverse().find(content => content.role === 'user' && content.parts.some(part => part.text !== undefined));
        return user?.parts.map(part => part.text ?? '').join('') ?? '';
    }

    /** The tool result the conversation ends with, if it does. */
    static lastToolResult(contents: Content[]): { name: string; response: unknown } | undefined {
        return contents[contents.length - 1]?.parts.find(part => part.functionResponse !== undefined)?.functionResponse;
    }

    async stop(): Promise<void> {
        await new Promise<void>(resolve => this.server ? this.server.close(() => resolve()) : resolve());
    }
}
