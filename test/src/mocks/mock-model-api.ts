import * as http from 'http';
import { AddressInfo } from 'net';

/** When a scripted reply goes out: once `after` settles, then `delayMs` later; at once when neither is given. */
export interface MockReplyTiming {
    /** Answer this late, so a test can watch the client while the model "thinks". */
    delayMs?: number;
    /** Answer only once this settles: the test decides when the model has "thought" enough. */
    after?: Promise<unknown>;
}

/** A Server-Sent Events reply, opened with status 200: frames as they come, then the end. */
export interface MockEventStream {
    /** One frame: `event: <event>` when named, then `data: <data as JSON>`. */
    send(data: unknown, event?: string): void;
    /** Ends the stream, after a last frame of raw data (`[DONE]`) when given. */
    end(lastData?: string): void;
}

/**
 * What every local stand-in for a model provider's HTTP API shares, so a real CLI runs offline with its
 * base URL pointed here: a server on the loopback interface only (a free port), each request's body
 * read whole and handed to `answer`, every request recorded in `requests` (each mock decides what it
 * keeps of one), replies chosen by the mock's script and sent when its turn says (see {@link replyWhen}),
 * JSON and SSE helpers, and `start` / `stop` by the mock's handle. A request the mock fails on (the
 * script threw, say) is answered 500 in the API's own error shape (`failed`). Each mock adds only what
 * its API differs in: the paths it serves, how it reads a request, how it words a reply.
 */
export abstract class MockModelApi<Request> {
    protected server?: http.Server;
    /** Every request, in the order they arrived. */
    readonly requests: Request[] = [];

    /** The server's origin, `http://127.0.0.1:<port>` (a CLI may want a path such as `/v1` after it). */
    get url(): string {
        return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    }

    /** Listens on a free loopback port; resolves with {@link url}. */
    async start(): Promise<string> {
        this.server = http.createServer((req, res) => {
            let body = '';
            req.setEncoding('utf8');
            req.on('data', chunk => body += chunk);
            req.on('end', () => {
                try {
                    this.answer(req, body, res);
                } catch (error) {
                    this.failed(res, error);
                }
            });
        });
        await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve));
        return this.url;
    }

    /** Stops listening and closes every connection: a CLI keeps connections alive, and `close` would wait for their timeout. */
    async stop(): Promise<void> {
        await new Promise<void>(resolve => {
            if (!this.server) {
                resolve();
                return;
            }
            this.server.close(() => resolve());
            this.server.closeAllConnections();
        });
    }

    /** Records the request and answers it (now, or later through {@link replyWhen}). */
    protected abstract answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void;

    /** Answers a request the mock failed on: 500, in the API's error shape. */
    protected abstract failed(res: http.ServerResponse, error: unknown): void;

    /** Calls `reply` when the turn says (see {@link MockReplyTiming}); not at all when the client has gone meanwhile. */
    protected replyWhen(turn: MockReplyTiming, res: http.ServerResponse, reply: () => void): void {
        const send = () => {
            if (!res.destroyed) {
                reply();
            }
        };
        if (turn.delayMs || turn.after) {
            // A turn whose `after` fails is answered 500 at once rather than never.
            void Promise.resolve(turn.after).then(() => setTimeout(send, turn.delayMs ?? 0), error => res.destroyed || this.failed(res, error));
        } else {
            send();
        }
    }

    protected static json(res: http.ServerResponse, status: number, value: unknown): void {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
    }

    /** Opens an SSE reply. */
    protected static eventStream(res: http.ServerResponse): MockEventStream {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'Connection': 'keep-alive' });
        return {
            send: (data, event) => res.write(`${event !== undefined ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`),
            end: lastData => res.end(lastData !== undefined ? `data: ${lastData}\n\n` : undefined)
        };
    }

    /** The bearer token of the request's `Authorization` header, if it has one. */
    protected static bearerToken(req: http.IncomingMessage): string | undefined {
        const authorization = req.headers.authorization;
        return authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined;
    }

    /** A request path without its query and trailing slashes. */
    protected static pathnameOf(path: string): string {
        return path.split('?')[0].replace(/\/+$/, '');
    }

    /** The body as a JSON object, or what is wrong with it. */
    protected static jsonObject(raw: string): { body: Record<string, unknown> } | { problem: string } {
        let body: unknown;
        try {
            body = JSON.parse(raw);
        } catch (error) {
            return { problem: `the body is not JSON (${error instanceof Error ? error.message : String(error)})` };
        }
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
            return { problem: 'the body is not a JSON object' };
        }
        return { body: body as Record<string, unknown> };
    }
}
