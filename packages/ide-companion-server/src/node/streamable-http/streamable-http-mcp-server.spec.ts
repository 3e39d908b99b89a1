import { expect } from 'chai';
import * as net from 'net';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHttpMcpServer } from './streamable-http-mcp-server';
import { RecordingLogger } from '../test/recording-logger';
import { rawRequest } from '../test/raw-http';
import { connectTestClient, until } from '../test/mcp-test-client';
import { SessionCredential } from '../../common/window-protocol';

const TOKEN = 'a'.repeat(43);
const initialize = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } }
});

const connectClient = (port: number, name = 'spec-client', token = TOKEN) => connectTestClient(port, token, name);

/** Another credential of the same window (an ACP agent's), valid on its own sessions only. */
const AGENT_TOKEN = 'g'.repeat(43);
const GEMINI = { flavour: 'gemini', label: 'Gemini CLI' } as const;
const AGENT = { label: 'Some ACP agent' } as const;

describe('StreamableHttpMcpServer', () => {
    let server: StreamableHttpMcpServer;
    let logger: RecordingLogger;
    let port: number;
    const json = (extra: Record<string, string> = {}) => ({
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: `127.0.0.1:${port}`, Authorization: `Bearer ${TOKEN}`, ...extra
    });

    beforeEach(async () => {
        logger = new RecordingLogger();
        server = new StreamableHttpMcpServer({
            authTokens: () => new Map<SessionCredential, string>([[GEMINI, TOKEN], [AGENT, AGENT_TOKEN]]), logger, maxBodyBytes: 64 * 1024, streamGraceMs: 200
        });
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
            const idle = new StreamableHttpMcpServer({ authTokens: () => new Map([[{ flavour: 'gemini', label: 'Gemini CLI' }, TOKEN]]), logger, idleSessionMs: 300 });
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
    /** Opens a session without an event stream, as a raw client: answers its id. */
    const openRawSession = async (token = TOKEN, clientInfo: object = { name: 'raw', version: '0' }) => {
        const response = await rawRequest(port, {
            headers: json({ Authorization: `Bearer ${token}` }),
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } })
        });
        expect(response.status, response.body).to.equal(200);
        const sessionId = response.headers['mcp-session-id'] as string;
        const initialized = await rawRequest(port, {
            headers: json({ Authorization: `Bearer ${token}`, 'Mcp-Session-Id': sessionId }), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })
        });
        expect(initialized.status).to.equal(202);
        return sessionId;
    };
    const listTools = (sessionId: string, token = TOKEN) => rawRequest(port, {
        headers: json({ Authorization: `Bearer ${token}`, 'Mcp-Session-Id': sessionId }), body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' })
    });

    describe('binds each session to the credential that opened it', () => {
        it('refuses POST, GET and DELETE on a session with another valid token, and the session still works with its own', async () => {
            const sessionId = await openRawSession(TOKEN);
            const other = json({ Authorization: `Bearer ${AGENT_TOKEN}`, 'Mcp-Session-Id': sessionId });
            const post = await rawRequest(port, { headers: other, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
            const stream = await rawRequest(port, { method: 'GET', headers: other });
            const remove = await rawRequest(port, { method: 'DELETE', headers: other });
            expect([post.status, stream.status, remove.status]).to.deep.equal([403, 403, 403]);
            for (const refused of [post, stream, remove]) {
                expect(JSON.parse(refused.body).error.message).to.match(/opened with another credential/);
            }
            expect(server.connectedSessions.map(session => session.sessionId)).to.deep.equal([sessionId]);
            const own = await listTools(sessionId, TOKEN);
            expect(own.status).to.equal(200);
            const ownStream = await rawRequest(port, { method: 'GET', headers: json({ 'Mcp-Session-Id': sessionId }) });
            expect(ownStream.status).to.equal(200);
            const lines = logger.lines.join('\n');
            expect(lines).to.match(/Refused a request \(403\): .*opened with another credential/);
            expect(lines).to.not.contain(TOKEN);
            expect(lines).to.not.contain(AGENT_TOKEN);
        });

        it('serves each credential its own sessions side by side', async () => {
            const gemini = await connectClient(port, 'gemini-like', TOKEN);
            const agent = await connectClient(port, 'agent-like', AGENT_TOKEN);
            expect((await gemini.client.listTools()).tools).to.be.an('array');
            expect((await agent.client.listTools()).tools).to.be.an('array');
            const agentSession = agent.transport.sessionId!;
            expect((await listTools(agentSession, TOKEN)).status).to.equal(403);
            expect((await listTools(agentSession, AGENT_TOKEN)).status).to.equal(200);
            await gemini.client.close();
            await agent.client.close();
        });
    });

    describe('noise and exhaustion', () => {
        it('logs the first refusal of a kind and summarises the rest: 500 refused requests make a handful of lines', async () => {
            for (let batch = 0; batch < 10; batch++) {
                const responses = await Promise.all(Array.from({ length: 50 }, () => rawRequest(port, { headers: json({ Origin: 'http://evil.example' }), body: initialize })));
                expect(responses.map(response => response.status)).to.deep.equal(Array(50).fill(403));
            }
            const refusals = () => logger.lines.filter(line => /refused/i.test(line));
            expect(refusals().length, refusals().join('\n')).to.be.within(1, 3);
            expect(refusals()[0]).to.match(/^WARN Refused a request \(403\): Forbidden: requests from web pages/);
            // The window stops: what was counted is said once.
            await server.stop();
            expect(refusals().slice(1).join('\n')).to.match(/^WARN \d+ more requests refused \(403 Origin\) in the last \d+ s$/);
            const counted = refusals().slice(1).reduce((sum, line) => sum + Number(/(\d+) more/.exec(line)![1]), 0);
            expect(counted).to.equal(499);
        });

        it('serves at most 64 sessions: the 65th initialize is refused, the first 64 keep working, and a closed one frees a place', async function (): Promise<void> {
            this.timeout(20000);
            const sessions: string[] = [];
            for (let batch = 0; batch < 8; batch++) {
                sessions.push(...await Promise.all(Array.from({ length: 8 }, () => openRawSession())));
            }
            expect(new Set(sessions).size).to.equal(64);
            const refused = await rawRequest(port, { headers: json(), body: initialize });
            expect(refused.status).to.equal(503);
            expect(JSON.parse(refused.body).error.message).to.match(/at most 64 sessions/);
            const answers = await Promise.all(sessions.map(sessionId => listTools(sessionId)));
            expect(answers.map(answer => answer.status)).to.deep.equal(Array(64).fill(200));
            expect(server.connectedSessions).to.have.length(64);
            const closed = await rawRequest(port, { method: 'DELETE', headers: json({ 'Mcp-Session-Id': sessions[0] }) });
            expect(closed.status).to.equal(200);
            await openRawSession();
            expect(logger.lines.filter(line => /at most 64 sessions/.test(line))).to.have.length(1);
        });

        it('caps its connections: one beyond the limit is closed at once, the ones it has are served', async () => {
            const limit = (server as unknown as { httpServer: { server: { maxConnections: number } } }).httpServer.server.maxConnections;
            expect(limit).to.be.within(128, 1024);
            const held: net.Socket[] = [];
            try {
                for (let i = 0; i < limit; i++) {
                    held.push(await new Promise<net.Socket>((resolve, reject) => {
                        const socket = net.connect(port, '127.0.0.1', () => resolve(socket)).on('error', reject);
                    }));
                }
                await until(() => (server as unknown as { httpServer: { openConnections: number } }).httpServer.openConnections === limit, 'every connection counted');
                const extra = net.connect(port, '127.0.0.1');
                await new Promise<void>(resolve => extra.on('close', () => resolve()).on('error', () => undefined));
                held.splice(0, 4).forEach(socket => socket.destroy());
                await until(() => (server as unknown as { httpServer: { openConnections: number } }).httpServer.openConnections < limit, 'connections freed');
                expect((await connectClient(port)).client).to.not.equal(undefined);
            } finally {
                held.forEach(socket => socket.destroy());
            }
        });

        it('logs and lists a client\'s name and version without control characters, capped', async () => {
            const name = '\n\u001b[31mEVIL\u0007\u202e' + 'n'.repeat(10000);
            const { client } = await connectTestClient(port, TOKEN, name, '1.0\r\n\u001b[0m' + 'v'.repeat(10000));
            await until(() => server.connectedSessions.length === 1, 'the session listed');
            const line = logger.lines.find(candidate => candidate.includes('connected:'))!;
            expect(line).to.not.match(/[\u0000-\u001f\u007f-\u009f\u202e]/);
            expect(line.length).to.be.below(400);
            expect(line).to.contain('EVILnnn');
            const [session] = server.connectedSessions;
            expect(session.clientName).to.match(/^EVILn+…$/);
            expect(session.clientName.length).to.be.at.most(100);
            expect(session.clientVersion).to.match(/^1\.0 v+…$/);
            await client.close();
        });
    });
});
