import * as http from 'http';
import { AddressInfo } from 'net';

/** A test's HTTP server on 127.0.0.1, on a free port: the only network the registry specs use. */
export class LoopbackServer {
    protected readonly sockets = new Set<import('net').Socket>();

    protected constructor(protected readonly server: http.Server) {
        server.on('connection', socket => {
            this.sockets.add(socket);
            socket.once('close', () => this.sockets.delete(socket));
        });
    }

    static async start(handler: http.RequestListener): Promise<LoopbackServer> {
        const server = http.createServer(handler);
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
        return new LoopbackServer(server);
    }

    url(pathname: string): string {
        return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${pathname}`;
    }

    /** Closes the server and every connection, including those a test left hanging on purpose. */
    close(): Promise<void> {
        this.sockets.forEach(socket => socket.destroy());
        return new Promise(resolve => this.server.close(() => resolve()));
    }
}
