import * as http from 'http';
import { AddressInfo, Socket } from 'net';

/**
 * An HTTP server on 127.0.0.1 and a random port that knows its open sockets, so stopping it does
 * not wait for clients with long-lived streams (SSE, WebSockets) to hang up.
 */
export class LoopbackServer {
    readonly server: http.Server;
    protected readonly sockets = new Set<Socket>();

    constructor(handler?: http.RequestListener) {
        this.server = http.createServer(handler);
        this.server.on('connection', socket => {
            this.sockets.add(socket);
            socket.once('close', () => this.sockets.delete(socket));
        });
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
