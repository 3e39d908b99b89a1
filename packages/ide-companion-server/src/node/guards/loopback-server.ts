import * as http from 'http';
import { AddressInfo, Socket } from 'net';

export interface LoopbackServerOptions {
    /**
     * Sockets beyond this many are closed as they come: without a limit anyone on the machine could
     * open connections until the backend runs out of file descriptors.
     */
    readonly maxConnections: number;
}

/**
 * How long a connection may take to send its request headers. Short, so that idle or trickling
 * connections (nothing a CLI does) cannot hold the places the limit leaves for long.
 */
const HEADERS_TIMEOUT_MS = 10_000;
/** How long receiving a whole request may take: a body of tens of MB over loopback takes far less. */
const REQUEST_TIMEOUT_MS = 60_000;
const CONNECTIONS_CHECKING_INTERVAL_MS = 5_000;

/**
 * An HTTP server on 127.0.0.1 and a random port that knows its open sockets, so stopping it does
 * not wait for clients with long-lived streams (SSE, WebSockets) to hang up.
 */
export class LoopbackServer {
    readonly server: http.Server;
    protected readonly sockets = new Set<Socket>();

    constructor(handler: http.RequestListener | undefined, options: LoopbackServerOptions) {
        this.server = http.createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS }, handler);
        this.server.maxConnections = options.maxConnections;
        this.server.headersTimeout = HEADERS_TIMEOUT_MS;
        this.server.requestTimeout = REQUEST_TIMEOUT_MS;
        this.server.on('connection', socket => {
            this.sockets.add(socket);
            socket.once('close', () => this.sockets.delete(socket));
        });
    }

    /** The sockets open now (upgraded WebSockets included). */
    get openConnections(): number {
        return this.sockets.size;
    }

    /** Listens; resolves with the port. */
    async listen(): Promise<number> {
        await new Promise<void>((resolve, reject) => {
            this.server.once('error', reject);
            this.server.listen(0, '127.0.0.1', () => {
                this.server.off('error', reject);
                resolve();
            });
        });
        return (this.server.address() as AddressInfo).port;
    }

    async close(): Promise<void> {
        await new Promise<void>(resolve => {
            this.server.close(() => resolve());
            this.sockets.forEach(socket => socket.destroy());
        });
    }
}
