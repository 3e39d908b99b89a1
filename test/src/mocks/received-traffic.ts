import { Page, Response } from 'playwright-core';

/** Static resources are files built before the test ran: they cannot carry anything the backend made since. */
const STATIC_RESOURCES = new Set(['script', 'stylesheet', 'image', 'font', 'media', 'manifest']);

/**
 * Everything a page receives from the network while it lives: every WebSocket frame (text or binary,
 * Theia's RPC is msgpack) and the body of every response that is not a static file (socket.io starts
 * on HTTP long-polling before it upgrades to a WebSocket, so early messages arrive that way).
 * Attach it before the page loads, so nothing is missed.
 */
export class ReceivedTraffic {
    /** The frames of each WebSocket, in order, as bytes. */
    protected readonly sockets: { url: string; frames: Buffer[] }[] = [];
    protected readonly bodies: Promise<{ url: string; body: Buffer | undefined }>[] = [];

    static record(page: Page): ReceivedTraffic {
        const traffic = new ReceivedTraffic();
        page.on('websocket', socket => {
            const frames: Buffer[] = [];
            traffic.sockets.push({ url: socket.url(), frames });
            socket.on('framereceived', ({ payload }) => frames.push(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload));
        });
        page.on('response', response => {
            if (!STATIC_RESOURCES.has(response.request().resourceType())) {
                traffic.bodies.push(bodyOf(response));
            }
        });
        return traffic;
    }

    get frameCount(): number {
        return this.sockets.reduce((count, socket) => count + socket.frames.length, 0);
    }

    /**
     * Where `text` appears in what the page received (its UTF-8 bytes, also across frame boundaries):
     * one description per WebSocket or response that holds it.
     */
    async find(text: string): Promise<string[]> {
        const needle = Buffer.from(text, 'utf8');
        const found = this.sockets.filter(socket => Buffer.concat(socket.frames).includes(needle)).map(socket => `a frame of the WebSocket ${socket.url}`);
        for (const { url, body } of await Promise.all(this.bodies)) {
            if (body?.includes(needle)) {
                found.push(`the response from ${url}`);
            }
        }
        return found;
    }
}

/** A response's body once it has arrived; undefined for one without a body (a redirect, an aborted poll). */
async function bodyOf(response: Response): Promise<{ url: string; body: Buffer | undefined }> {
    return { url: response.url(), body: await response.body().catch(() => undefined) };
}
