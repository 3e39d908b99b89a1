import { expect } from 'chai';
import { WebSocket } from 'ws';
import { until } from '../../common/test/until';

interface RpcMessage { jsonrpc: '2.0'; id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string } }

/** A raw WebSocket JSON-RPC peer, as Claude Code's client is on the wire (the SDK has no server-side WebSocket to test against). */
export class ClaudeWire {
    readonly received: RpcMessage[] = [];
    protected nextId = 1;
    constructor(readonly socket: WebSocket) {
        socket.on('message', data => this.received.push(JSON.parse(data.toString())));
    }
    static async open(port: number, headers: Record<string, string>, protocols: string[] = ['mcp']): Promise<ClaudeWire> {
        const socket = new WebSocket(`ws://127.0.0.1:${port}`, protocols, { headers });
        await new Promise<void>((resolve, reject) => {
            socket.once('open', () => resolve());
            socket.once('error', reject);
            socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
        });
        return new ClaudeWire(socket);
    }
    async request(method: string, params: Record<string, unknown> = {}): Promise<RpcMessage> {
        const id = this.nextId++;
        this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
        await until(() => this.received.some(message => message.id === id), `the answer to ${method}`, 10000);
        return this.received.find(message => message.id === id)!;
    }
    notify(method: string, params: Record<string, unknown> = {}): void {
        this.socket.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
    }
    async handshake(): Promise<void> {
        const init = await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.332' } });
        expect(init.result?.serverInfo).to.be.an('object');
        this.notify('notifications/initialized');
        this.notify('ide_connected', { pid: process.pid });
    }
    async call(name: string, args: Record<string, unknown> = {}): Promise<{ texts: string[]; isError: boolean }> {
        const answer = await this.request('tools/call', { name, arguments: args });
        const result = answer.result as { content: { text: string }[]; isError?: boolean };
        return { texts: result.content.map(block => block.text), isError: !!result.isError };
    }
    notifications(method: string): Record<string, unknown>[] {
        return this.received.filter(message => message.method === method && message.id === undefined).map(message => message.params!);
    }
}

/** Status code of a refused upgrade. */
export async function refusedWith(port: number, headers: Record<string, string>, protocols: string[] = ['mcp']): Promise<number> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, protocols, { headers });
    return new Promise<number>((resolve, reject) => {
        socket.once('open', () => reject(new Error('the connection was accepted')));
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.once('error', () => undefined);
    });
}
