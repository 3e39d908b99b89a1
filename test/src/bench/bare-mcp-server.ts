import * as http from 'http';
import { AddressInfo } from 'net';
import { randomUUID } from 'crypto';
import express = require('express');
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { CloseDiffArgumentsSchema } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

/**
 * The baseline of the server benchmarks: the MCP SDK's own stateful Streamable HTTP server, with the
 * same closeDiff tool (same input schema, same answer when no diff is open) and the same JSON body
 * parsing as the companion, and nothing else (no Host/Origin/token checks, no discovery, no
 * per-flavour bookkeeping, no diff lookup).
 */
export class BareMcpServer {
    readonly sessions = new Map<string, { transport: StreamableHTTPServerTransport; mcp: McpServer }>();
    protected server?: http.Server;
    port = 0;

    async start(): Promise<number> {
        const app = express();
        app.use(express.json({ limit: 32 * 1024 * 1024 }));
        app.post('/mcp', async (req, res) => {
            const id = req.headers['mcp-session-id'];
            const existing = typeof id === 'string' ? this.sessions.get(id) : undefined;
            if (existing) {
                return existing.transport.handleRequest(req, res, req.body);
            }
            if (!isInitializeRequest(req.body)) {
                res.status(400).end();
                return;
            }
            const mcp = new McpServer({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
            (mcp.registerTool.bind(mcp) as unknown as (name: string, config: object, handler: () => Promise<object>) => void)(
                'closeDiff', { description: 'baseline', inputSchema: CloseDiffArgumentsSchema },
                async () => ({ content: [{ type: 'text', text: JSON.stringify({ content: null }) }] }));
            const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                onsessioninitialized: sessionId => { this.sessions.set(sessionId, { transport, mcp }); }
            });
            await mcp.connect(transport);
            await transport.handleRequest(req, res, req.body);
        });
        const onSession = async (req: express.Request, res: express.Response) => {
            const id = req.headers['mcp-session-id'];
            const session = typeof id === 'string' ? this.sessions.get(id) : undefined;
            if (!session) {
                res.status(404).end();
                return;
            }
            await session.transport.handleRequest(req, res);
        };
        app.get('/mcp', onSession);
        app.delete('/mcp', onSession);
        const server = http.createServer(app);
        await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
        this.server = server;
        this.port = (server.address() as AddressInfo).port;
        return this.port;
    }

    /** Sends one notification to every session, as the companion's notifyAll does. */
    async notifyAll(method: string, params: Record<string, unknown>): Promise<void> {
        await Promise.all([...this.sessions.values()].map(session => session.mcp.server.notification({ method, params })));
    }

    async stop(): Promise<void> {
        await Promise.all([...this.sessions.values()].map(session => session.transport.close().catch(() => undefined)));
        this.server?.closeAllConnections();
        await new Promise<void>(resolve => this.server ? this.server.close(() => resolve()) : resolve());
    }
}
