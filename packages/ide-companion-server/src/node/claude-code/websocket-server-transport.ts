import type { WebSocket } from 'ws';
import { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { jsonRpcError } from '../guards/mcp-request-guard';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';

/**
 * The MCP SDK's transport interface over one accepted WebSocket (the SDK ships only a client-side
 * WebSocket transport). One JSON-RPC message per text frame; JSON-RPC itself stays the SDK's.
 */
export class WebSocketServerTransport implements Transport {
    onclose?: () => void;
    onerror?: (error: Error) => void;
    onmessage?: (message: JSONRPCMessage) => void;
    /** Sees every valid message before the SDK does (for the CLI's own notifications). */
    onincoming?: (message: JSONRPCMessage) => void;
    protected closed = false;

    constructor(protected readonly socket: WebSocket, readonly sessionId: string) { }

    async start(): Promise<void> {
        this.socket.on('message', (data, isBinary) => this.receive(isBinary ? undefined : data.toString()));
        this.socket.on('close', () => this.didClose());
        this.socket.on('error', error => this.onerror?.(error));
    }

    protected receive(text: string | undefined): void {
        let parsed: unknown;
        try {
            if (text === undefined) {
                throw new Error('binary frames are not JSON-RPC');
            }
            parsed = JSON.parse(text);
        } catch (error) {
            this.socket.send(JSON.stringify(jsonRpcError(-32700, `Parse error: ${describeError(error)}`)));
            return;
        }
        const message = JSONRPCMessageSchema.safeParse(parsed);
        if (!message.success) {
            this.socket.send(JSON.stringify(jsonRpcError(-32600, 'Invalid Request: not a JSON-RPC 2.0 message')));
            return;
        }
        this.onincoming?.(message.data);
        this.onmessage?.(message.data);
    }

    async send(message: JSONRPCMessage): Promise<void> {
        if (this.closed) {
            throw new Error('The WebSocket is closed');
        }
        await new Promise<void>((resolve, reject) => this.socket.send(JSON.stringify(message), error => error ? reject(error) : resolve()));
    }

    async close(): Promise<void> {
        this.socket.close(1000);
        this.didClose();
    }

    protected didClose(): void {
        if (!this.closed) {
            this.closed = true;
            this.onclose?.();
        }
    }
}
