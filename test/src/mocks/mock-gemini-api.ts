import * as http from 'http';
import { MockModelApi, MockReplyTiming } from './mock-model-api';

interface Part { text?: string; functionCall?: { name: string; args: unknown }; functionResponse?: { name: string; response: unknown } }
interface Content { role: string; parts: Part[] }

/** One request: its path, its conversation, the names of the tools it offered the model, and when it arrived (epoch ms). */
export interface GeminiRequest { path: string; contents: Content[]; tools: string[]; apiKey?: string; at: number }

/** One model reply, chosen from the conversation so far. */
export type MockTurn = ({ text: string } | { functionCall: { name: string; args: Record<string, unknown> } }) & MockReplyTiming;

/**
 * A local stand-in for the Gemini REST API (`:streamGenerateContent?alt=sse`), so the real Gemini
 * CLI runs offline with `GOOGLE_GEMINI_BASE_URL` pointed here. The reply is decided by `script`
 * from the request's contents; every request is kept for the test to inspect.
 */
export class MockGeminiApi extends MockModelApi<GeminiRequest> {

    constructor(protected readonly script: (contents: Content[]) => MockTurn) {
        super();
    }

    protected answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
        const path = req.url ?? '';
        const apiKey = req.headers['x-goog-api-key'] as string | undefined;
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
            MockGeminiApi.json(res, 200, { totalTokens: 11 });
            return;
        }
        const turn = this.script(contents);
        const parts: Part[] = 'text' in turn ? [{ text: turn.text }] : [{ functionCall: turn.functionCall }];
        const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata };
        this.replyWhen(turn, res, () => {
            if (path.includes(':streamGenerateContent')) {
                const stream = MockGeminiApi.eventStream(res);
                stream.send(chunk);
                stream.end();
            } else {
                MockGeminiApi.json(res, 200, chunk);
            }
        });
    }

    protected failed(res: http.ServerResponse, error: unknown): void {
        MockGeminiApi.json(res, 500, { error: { code: 500, message: `mock: ${String(error)}`, status: 'INTERNAL' } });
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
}
