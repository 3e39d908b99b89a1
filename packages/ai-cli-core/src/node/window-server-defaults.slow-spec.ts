import { expect } from 'chai';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import { Container } from '@theia/core/shared/inversify';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { ILogger } from '@theia/core/lib/common/logger';
import { GeminiCliFlavour, QwenCodeFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { IdeCompanionBackendImpl } from './ide-companion-backend-impl';
import { WindowServerRegistry } from './window-server-registry';
import { WindowModuleContribution } from './window-module-contribution';
import { rawRequest, RecordingLogger, until } from '@theia-cli-companion/ide-companion-server/lib/node/test';

const MIB = 1024 * 1024;

/**
 * Timers of a second or more run on a virtual clock that the test advances; shorter ones (the test's
 * own polling, the HTTP stack) run as usual. Mocha keeps its own references to the real timers.
 */
class VirtualLongTimers {
    protected readonly realSetTimeout = globalThis.setTimeout;
    protected readonly realClearTimeout = globalThis.clearTimeout;
    protected now = 0;
    protected readonly timers = new Map<object, { at: number; run: () => void }>();

    get pending(): number {
        return this.timers.size;
    }

    install(): void {
        const timers = this.timers;
        const realSetTimeout = this.realSetTimeout;
        const realClearTimeout = this.realClearTimeout;
        const clock = this;
        (globalThis as { setTimeout: unknown }).setTimeout = function (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): unknown {
            if (typeof ms !== 'number' || ms < 1000) {
                return realSetTimeout(callback, ms, ...args);
            }
            const handle = { ref: () => handle, unref: () => handle, hasRef: () => false, refresh: () => handle };
            timers.set(handle, { at: clock.now + ms, run: () => callback(...args) });
            return handle;
        };
        (globalThis as { clearTimeout: unknown }).clearTimeout = (handle: unknown) => {
            if (!(handle && timers.delete(handle as object))) {
                realClearTimeout(handle as NodeJS.Timeout);
            }
        };
    }

    uninstall(): void {
        globalThis.setTimeout = this.realSetTimeout;
        globalThis.clearTimeout = this.realClearTimeout;
    }

    /** Moves the clock on by `ms`, running every timer that comes due, in order. */
    advance(ms: number): void {
        const end = this.now + ms;
        for (;;) {
            const due = [...this.timers].filter(([, timer]) => timer.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
            if (!due) {
                break;
            }
            this.timers.delete(due[0]);
            this.now = due[1].at;
            due[1].run();
        }
        this.now = end;
    }
}

/**
 * The window server exactly as the app builds it: through WindowServerRegistry, with none of the
 * options the other specs shorten. What SECURITY.md promises of the defaults holds for these values.
 */
describe('A window server as the app builds it (the defaults SECURITY.md states)', function (): void {
    this.timeout(30000);
    let home: ReturnType<typeof useTemporaryHome>;
    let registry: WindowServerRegistry;
    let container: Container;
    const backends: IdeCompanionBackendImpl[] = [];

    const openWindow = async () => {
        const backend = container.get(IdeCompanionBackendImpl);
        backends.push(backend);
        const status = await backend.attachWindow({ rootUris: [FileUri.create(home.dir).toString()], flavours: ['gemini', 'qwen'] });
        const token = backend.currentWindow!.endpointFor('gemini').authToken;
        return { backend, status, port: status.port, token };
    };
    const headers = (port: number, token: string, extra: Record<string, string> = {}) => ({
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: `127.0.0.1:${port}`, Authorization: `Bearer ${token}`, ...extra
    });
    const initialize = JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'defaults-spec', version: '1' } }
    });
    /** A session opened the way a raw client does, without an event stream; answers its id. */
    const openSession = async (port: number, token: string) => {
        const response = await rawRequest(port, { headers: headers(port, token), body: initialize });
        expect(response.status, response.body).to.equal(200);
        const sessionId = response.headers['mcp-session-id'] as string;
        await rawRequest(port, { headers: headers(port, token, { 'Mcp-Session-Id': sessionId }), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
        return sessionId;
    };

    beforeEach(() => {
        home = useTemporaryHome();
        container = new Container();
        container.bind(ILogger).toConstantValue(new RecordingLogger() as unknown as ILogger);
        bindContributionProvider(container.bind.bind(container), WindowModuleContribution);
        container.bind(WindowModuleContribution).toConstantValue({ flavours: [GeminiCliFlavour, QwenCodeFlavour] });
        container.bind(WindowServerRegistry).toSelf().inSingletonScope();
        container.bind(IdeCompanionBackendImpl).toSelf();
        registry = container.get(WindowServerRegistry);
    });
    afterEach(async () => {
        await Promise.all(backends.splice(0).map(backend => backend.detachWindow()));
        await registry.onStop();
        home.restore();
    });

    it('takes a JSON body of exactly 32 MiB and answers one byte more with 413', async () => {
        const { port, token } = await openWindow();
        // Valid JSON that is not an initialize request: parsed, then refused for what it is (400), not for its size.
        const bodyOf = (bytes: number) => {
            const envelope = '{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":""}}';
            return Buffer.from(envelope.replace('"s":""', `"s":"${'x'.repeat(bytes - envelope.length)}"`));
        };
        const limit = bodyOf(32 * MIB);
        expect(limit.length).to.equal(32 * MIB);
        const taken = await rawRequest(port, { headers: headers(port, token), body: limit });
        expect(taken.status, taken.body.slice(0, 200)).to.equal(400);
        expect(JSON.parse(taken.body).error.message).to.match(/not an initialize request/);
        const over = await rawRequest(port, { headers: headers(port, token), body: bodyOf(32 * MIB + 1) });
        expect(over.status).to.equal(413);
        expect(JSON.parse(over.body).error.message).to.equal(`Payload Too Large: the body exceeds ${32 * MIB} bytes`);
    });

    describe('session timeouts, on a virtual clock', () => {
        let clock: VirtualLongTimers;
        beforeEach(() => {
            clock = new VirtualLongTimers();
            clock.install();
        });
        afterEach(() => clock.uninstall());

        it('ends a session whose event stream dropped after 5 s, not before', async () => {
            const { backend, port, token } = await openWindow();
            const window = backend.currentWindow!;
            const sessionId = await openSession(port, token);
            // The event stream opens and drops, as a CLI that is killed leaves it.
            const stream = await rawRequest(port, { method: 'GET', headers: headers(port, token, { 'Mcp-Session-Id': sessionId }) });
            expect(stream.status).to.equal(200);
            await until(() => clock.pending > 0, 'the server to notice the dropped stream');
            clock.advance(4999);
            await new Promise(resolve => setImmediate(resolve));
            expect(window.connectedSessions.map(session => session.sessionId)).to.deep.equal([sessionId]);
            clock.advance(1);
            await until(() => window.connectedSessions.length === 0, 'the session to end at 5 s');
        });

        it('ends a session that never opens an event stream after 60 s without a request, not before', async () => {
            const { backend, port, token } = await openWindow();
            const window = backend.currentWindow!;
            const sessionId = await openSession(port, token);
            clock.advance(59_999);
            await new Promise(resolve => setImmediate(resolve));
            expect(window.connectedSessions.map(session => session.sessionId)).to.deep.equal([sessionId]);
            clock.advance(1);
            await until(() => window.connectedSessions.length === 0, 'the idle session to end at 60 s');
        });
    });

    it('never grants CORS, and refuses any Origin with 403 before looking at the token', async () => {
        const { port, token } = await openWindow();
        const answers = [
            await rawRequest(port, { method: 'OPTIONS', headers: {
                Host: `127.0.0.1:${port}`, Origin: 'http://127.0.0.1:3000', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type'
            } }),
            await rawRequest(port, { headers: headers(port, token, { Origin: 'http://127.0.0.1:3000' }), body: initialize }),
            await rawRequest(port, { headers: headers(port, 'wrong', { Origin: 'http://evil.example' }), body: initialize }),
            await rawRequest(port, { headers: (({ Authorization, ...rest }) => rest)(headers(port, token, { Origin: 'null' })), body: initialize })
        ];
        expect(answers.map(answer => answer.status)).to.deep.equal([403, 403, 403, 403]);
        answers.forEach(answer => expect(JSON.parse(answer.body).error.message).to.match(/Origin header present/));
        const served = await rawRequest(port, { headers: headers(port, token), body: initialize });
        expect(served.status).to.equal(200);
        for (const answer of [...answers, served]) {
            expect(Object.keys(answer.headers).filter(name => name.startsWith('access-control-'))).to.deep.equal([]);
        }
    });

    it('listens on 127.0.0.1 only: the port is closed on every other address of this machine', async () => {
        const { port } = await openWindow();
        // Link-local IPv6 addresses need a zone to be dialled; every other address of the machine is tried.
        const others = Object.values(os.networkInterfaces()).flat().filter(address => address && !address.internal && !address.address.startsWith('fe80:'))
            .map(address => address!.address);
        const connects = (host: string) => new Promise<string>(resolve => {
            const socket = net.connect(port, host, () => { socket.destroy(); resolve('connected'); });
            socket.on('error', error => resolve((error as NodeJS.ErrnoException).code ?? String(error)));
        });
        expect(await connects('127.0.0.1')).to.equal('connected');
        for (const host of ['::1', ...others]) {
            expect(await connects(host), host).to.be.oneOf(['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH']);
        }
    });

    it('gives every window its own tokens', async () => {
        const first = await openWindow();
        const second = await openWindow();
        expect(first.port).to.not.equal(second.port);
        expect(first.token).to.not.equal(second.token);
        expect(first.backend.currentWindow!.endpointFor('qwen').authToken).to.not.equal(second.backend.currentWindow!.endpointFor('qwen').authToken);
    });

    it('removes every window\'s discovery files synchronously when the backend stops (the process \'exit\' path awaits nothing)', async () => {
        const first = await openWindow();
        const second = await openWindow();
        const files = [...first.status.discoveryFiles, ...second.status.discoveryFiles].map(file => file.path);
        expect(files).to.have.length(4);
        expect(files.every(file => fs.existsSync(file))).to.equal(true);
        const stopping = registry.onStop();
        expect(files.filter(file => fs.existsSync(file)), 'files left when onStop returned').to.deep.equal([]);
        await stopping;
    });
});
