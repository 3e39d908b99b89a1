import { expect } from 'chai';
import * as net from 'net';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { CompanionMcpServer } from './companion-mcp-server';
import { RecordingLogger } from './test/recording-logger';
import { rawRequest } from './test/raw-http';
import { connectTestClient, until } from './test/mcp-test-client';

const TOKEN = 'a'.repeat(43);
const initialize = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } }
});

const connectClient = (port: number, name = 'spec-client', token = TOKEN) => connectTestClient(port, token, name);

describe('CompanionMcpServer', () => {
    let server: CompanionMcpServer;
    let logger: RecordingLogger;
    let port: number;
    const json = (extra: Record<string, string> = {}) => ({
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: `127.0.0.1:${port}`, Authorization: `Bearer ${TOKEN}`, ...extra
    });

    beforeEach(async () => {
        logger = new RecordingLogger();
        server = new CompanionMcpServer({ authTokens: () => new Map([[{ flavour: 'gemini', label: 'Gemini CLI' }, TOKEN]]), logger, maxBodyBytes: 64 * 1024, streamGraceMs: 200 });
        port = await server.start();
    });
    afterEach(() => server.stop());

    it('listens on a random loopback port', () => {
        expect(port).to.be.greaterThan(0);
        expect((server as unknown as { httpServer: { server: { address(): { address: string } } } }).httpServer.server.address().address).to.equal('127.0.0.1');
    });

    describe('refuses bad requests with a clear error and keeps serving', () => {
        it('401 without a token or with a wrong one', async () => {
            const missing = await rawRequest(port, { headers: { ...json(), Authorization: '' }, body: initialize });
            const noHeader = await rawRequest(port, { headers: (({ Authorization, ...rest }) => rest)(json()), body: initialize });
            const wrong = await rawRequest(port, { headers: json({ Authorization: `Bearer ${'b'.repeat(43)}` }), body: initialize });
            expect([missing.status, noHeader.status, wrong.status]).to.deep.equal([401, 401, 401]);
            expect(noHeader.headers['www-authenticate']).to.match(/^Bearer/);
            expect(JSON.parse(noHeader.body).error.message).to.match(/missing Authorization/);
            expect(JSON.parse(wrong.body).error.message).to.match(/invalid bearer token/);
        });

        it('403 for any Origin header, even with the right token', async () => {
            for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${port}`]) {
                const response = await rawRequest(port, { headers: json({ Origin: origin }), body: initialize });
                expect(response.status, origin).to.equal(403);
                expect(JSON.parse(response.body).error.message).to.match(/Origin/);
            }
        });

        it('403 for a Host other than this loopback address', async () => {
            for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `host.docker.internal:${port}`, `[::1]:${port}`]) {
                const response = await rawRequest(port, { headers: json({ Host: host }), body: initialize });
                expect(response.status, host).to.equal(403);
            }
            const noHost = await new Promise<string>((resolve, reject) => {
                const socket = net.connect(port, '127.0.0.1', () => socket.end(`POST /mcp HTTP/1.0\r\nAuthorization: Bearer ${TOKEN}\r\n`
                    + `Content-Type: application/json\r\nContent-Length: ${initialize.length}\r\n\r\n${initialize}`));
                let data = '';
                socket.on('data', chunk => data += chunk).on('end', () => resolve(data)).on('error', reject);
            });
            expect(noHost).to.match(/^HTTP\/1\.[01] 403/);
            const localhost = await rawRequest(port, { headers: json({ Host: `localhost:${port}` }), body: initialize });
            expect(localhost.status).to.equal(200);
        });

        it('413 for an oversized body, 400 for invalid JSON and for a garbage batch', async () => {
            const big = await rawRequest(port, { headers: json(), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { s: 'x'.repeat(100 * 1024) } }) });
            expect(big.status).to.equal(413);
            const invalid = await rawRequest(port, { headers: json(), body: '{"jsonrpc": "2.0", ' });
            expect(invalid.status).to.equal(400);
            expect(JSON.parse(invalid.body).error.code).to.equal(-32700);
            const batch = await rawRequest(port, { headers: json(), body: JSON.stringify([1, 'two', { three: 3 }]) });
            expect(batch.status).to.equal(400);
        });

        it('400 without a session for anything but initialize; 404 for unknown sessions', async () => {
            const noSession = await rawRequest(port, { headers: json(), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
            expect(noSession.status).to.equal(400);
            const unknown = await rawRequest(port, {
                headers: json({ 'Mcp-Session-Id': 'no-such-session' }), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
            });
            expect(unknown.status).to.equal(404);
            const unknownStream = await rawRequest(port, { method: 'GET', headers: json({ 'Mcp-Session-Id': 'no-such-session' }) });
            expect(unknownStream.status).to.equal(404);
            const elsewhere = await rawRequest(port, { path: '/other', headers: json(), body: initialize });
            expect(elsewhere.status).to.equal(404);
        });

        it('answers unknown methods of a live session with a JSON-RPC error', async () => {
            const { client } = await connectClient(port);
            let error: Error | undefined;
            await client.request({ method: 'no/such/method', params: {} }, EmptyResultSchema).catch(e => error = e);
            expect(error?.message).to.match(/Method not found/);
            await client.close();
        });

        it('still serves a real client after all of that, and never logs the token', async () => {
            await rawRequest(port, { headers: json({ Authorization: 'Bearer wrong' }), body: initialize });
            await rawRequest(port, { headers: json({ Origin: 'http://x' }), body: initialize });
            const { client } = await connectClient(port);
            const tools = await client.listTools();
            expect(tools.tools).to.be.an('array');
            await client.close();
            expect(logger.lines.join('\n')).to.not.contain(TOKEN);
            expect(logger.lines.some(line => line.includes('Refused a request (401)'))).to.equal(true);
        });
    });

    describe('sessions', () => {
        it('lists each connected client with its name and version', async () => {
            const changes: number[] = [];
            server.onDidChangeSessions(sessions => changes.push(sessions.length));
            const a = await connectClient(port, 'gemini-like');
            const b = await connectClient(port, 'qwen-like');
            await until(() => server.connectedSessions.length === 2, 'two sessions');
            expect(server.connectedSessions.map(s => `${s.clientName} ${s.clientVersion}`).sort()).to.deep.equal(['gemini-like 1.2.3', 'qwen-like 1.2.3']);
            await a.transport.terminateSession();
            await a.client.close();
            await until(() => server.connectedSessions.length === 1, 'one session left');
            expect(server.connectedSessions[0].clientName).to.equal('qwen-like');
            expect(changes).to.deep.equal([1, 2, 1]);
            await b.client.close();
        });

        it('delivers notifications on every session\'s event stream', async () => {
            const opened: string[] = [];
            server.onDidOpenStream(id => opened.push(id));
            const a = await connectClient(port);
            const b = await connectClient(port);
            await until(() => opened.length === 2, 'both event streams');
            await server.notifyAll({ method: 'ide/contextUpdate', params: { workspaceState: { isTrusted: true } } });
            await until(() => a.updates.length === 1 && b.updates.length === 1, 'both clients notified');
            expect(a.updates[0]).to.deep.equal({ workspaceState: { isTrusted: true } });
            await a.client.close();
            await b.client.close();
        });

        it('refuses to send a notification that does not match the clients\' schema', async () => {
            let error: Error | undefined;
            await server.notifyAll({ method: 'ide/contextUpdate', params: { workspaceState: { openFiles: [{ path: '', timestamp: 1 }] } } }).catch(e => error = e);
            expect(error).to.be.instanceOf(Error);
        });

        it('ends a session whose client vanished without closing (its event stream dropped)', async () => {
            const opened: string[] = [];
            server.onDidOpenStream(id => opened.push(id));
            const a = await connectClient(port);
            await until(() => opened.length === 1, 'event stream');
            // Drop the SSE stream the way a killed process does, without a DELETE.
            (a.transport as unknown as { _abortController?: AbortController })._abortController?.abort();
            await until(() => server.connectedSessions.length === 0, 'the session to end', 3000);
            expect(logger.lines.some(line => line.includes('lost its event stream'))).to.equal(true);
        });

        it('ends a session that never opens its event stream once it has been idle for the limit', async () => {
            const idle = new CompanionMcpServer({ authTokens: () => new Map([[{ flavour: 'gemini', label: 'Gemini CLI' }, TOKEN]]), logger, idleSessionMs: 300 });
            const idlePort = await idle.start();
            try {
                const headers = { ...json(), Host: `127.0.0.1:${idlePort}` };
                const response = await rawRequest(idlePort, { headers, body: initialize });
                const sessionId = response.headers['mcp-session-id'] as string;
                await rawRequest(idlePort, { headers: { ...headers, 'mcp-session-id': sessionId }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
                expect(idle.connectedSessions.map(session => session.sessionId)).to.deep.equal([sessionId]);
                await until(() => idle.connectedSessions.length === 0, 'the idle session to end', 3000);
                expect(logger.lines.some(line => line.includes(`${sessionId} has no event stream`))).to.equal(true);
            } finally {
                await idle.stop();
            }
        });

        it('closes every session when stopped', async () => {
            const a = await connectClient(port);
            let closed = false;
            a.client.onclose = () => closed = true;
            await server.stop();
            expect(server.connectedSessions).to.deep.equal([]);
            await a.client.close();
            expect(closed).to.equal(true);
        });
    });
});
