import { expect } from 'chai';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import * as vm from 'vm';
import { GeminiCliFlavour, QwenCodeFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { connectTestClient, until } from './test/mcp-test-client';
import { rawRequest, RawResponse } from './test/raw-http';
import { RecordingLogger } from './test/recording-logger';
import { RecordingWindow } from './test/recording-window';
import { WindowServer } from './window-server';
import { createWindowServer } from './window-server-module';
import { IDE_CONTEXT_TOOL_NAMES } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc') as () => void;

function liveHeapMiB(): number {
    gc();
    gc();
    const usage = process.memoryUsage();
    return (usage.heapUsed + usage.external) / (1024 * 1024);
}

/** Header values must be printable ASCII to be sent at all; anything else is mapped into that range. */
const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, character => String.fromCharCode(0x20 + (character.charCodeAt(0) % 0x5f)));

/** A window's browser side that answers every diff request at once, counting them. */
/** Counts the diffs shown without keeping them: fuzzed proposals are large and the test measures memory. */
class CountingWindow extends RecordingWindow {
    shown = 0;
    override async openDiff(): Promise<void> {
        this.shown++;
    }
}

interface FuzzRequest {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string | Buffer;
}

/**
 * Thousands of generated malformed requests against a running window server: random bytes, invalid
 * JSON, wrong JSON-RPC shapes, wrong types in tool arguments, huge strings, deep nesting, unknown
 * sessions, abused headers. Bounded in count and time. The server must answer each with a client
 * error (never a 5xx), raise no unhandled rejection, serve a real client normally afterwards, and
 * give its memory back once the abandoned sessions have timed out.
 */
describe('Window server under fuzzing', function (): void {
    this.timeout(180000);
    let home: ReturnType<typeof useTemporaryHome>;
    let window: WindowServer;
    let browser: CountingWindow;
    let logger: RecordingLogger;

    before(async () => {
        home = useTemporaryHome();
        fs.mkdirSync(path.join(home.dir, 'ws'));
        fs.writeFileSync(path.join(home.dir, 'ws', 'a.txt'), 'a\n');
        logger = new RecordingLogger();
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-00000000f022', flavours: [GeminiCliFlavour, QwenCodeFlavour], logger,
            serverPid: process.pid, streamGraceMs: 200, idleSessionMs: 3000
        });
        await window.start([path.join(home.dir, 'ws')]);
        browser = new CountingWindow();
        window.attachFrontend(browser);
    });

    after(async () => {
        await window?.stop();
        home?.restore();
    });

    it('answers every malformed request with a client error and keeps serving, with its memory back', async () => {
        const port = window.server.port;
        const token = window.endpointFor('gemini').authToken;
        const opened: string[] = [];
        const openedListener = window.server.onDidOpenStream(id => opened.push(id));
        const live = await connectTestClient(port, token, 'live-client', '1.0.0');
        const liveSession = live.transport.sessionId!;
        // The SDK client opens its event stream after `initialize` returns; until then the session counts as idle,
        // and a loaded machine can take longer than the test's short idle timeout to get there.
        await until(() => opened.includes(liveSession), 'the live client to open its event stream');
        openedListener.dispose();
        const workspaceFile = path.join(home.dir, 'ws', 'a.txt');
        const unhandled: unknown[] = [];
        const onUnhandled = (reason: unknown) => unhandled.push(reason);
        process.on('unhandledRejection', onUnhandled);
        const heapBefore = liveHeapMiB();

        const headerText = fc.string({ maxLength: 300 }).map(printable);
        const authorization = fc.oneof(
            { weight: 8, arbitrary: fc.constant(`Bearer ${token}`) },
            { weight: 1, arbitrary: fc.constant(`Bearer ${window.endpointFor('qwen').authToken}`) },
            { weight: 1, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: headerText },
            { weight: 1, arbitrary: fc.constant(`Bearer ${token}x`) },
            { weight: 1, arbitrary: fc.constant(`Bearer ${'t'.repeat(20000)}`) });
        const host = fc.oneof({ weight: 10, arbitrary: fc.constant(`127.0.0.1:${port}`) }, fc.constant(`localhost:${port}`), fc.domain(), headerText);
        const origin = fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, fc.webUrl(), fc.constant('null'));
        const session = fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 4, arbitrary: fc.constant(liveSession) }, fc.uuid(), headerText);
        const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') },
            fc.constantFrom('text/plain', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'multipart/form-data; boundary=x'), headerText);
        const accept = fc.oneof({ weight: 6, arbitrary: fc.constant('application/json, text/event-stream') }, fc.constant(undefined), headerText);
        const toolArguments = fc.oneof(fc.jsonValue(), fc.record({
            filePath: fc.oneof(fc.constant(workspaceFile), fc.constant(path.join(home.dir, 'ws', 'new ü.txt')), fc.constant('/etc/passwd'), fc.string(), fc.jsonValue()),
            newContent: fc.oneof(fc.string(), fc.jsonValue()),
            suppressNotification: fc.jsonValue(),
            startLine: fc.oneof(fc.integer(), fc.jsonValue()),
            endLine: fc.oneof(fc.integer(), fc.jsonValue()),
            select: fc.jsonValue()
        }, { requiredKeys: [] }));
        const toolName = fc.constantFrom('openDiff', 'closeDiff', ...IDE_CONTEXT_TOOL_NAMES);
        const message = fc.record({
            jsonrpc: fc.oneof({ weight: 5, arbitrary: fc.constant('2.0') }, fc.jsonValue()),
            id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.jsonValue()),
            method: fc.oneof(fc.constantFrom('initialize', 'tools/call', 'tools/list', 'notifications/initialized', 'ping', 'resources/list', 'logging/setLevel'), fc.string()),
            params: fc.oneof(fc.jsonValue(), fc.record({ name: fc.oneof(toolName, fc.constant('nope')), arguments: toolArguments }),
                fc.record({ protocolVersion: fc.oneof(fc.constant('2025-06-18'), fc.string()), capabilities: fc.jsonValue(), clientInfo: fc.jsonValue() }))
        }, { requiredKeys: [] });
        const deepNesting = fc.integer({ min: 1000, max: 50000 }).map(depth => '['.repeat(depth) + ']'.repeat(depth));
        const deepParams = fc.integer({ min: 1000, max: 5000 }).map(depth =>
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"openDiff","arguments":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`);
        const hugeString = fc.integer({ min: 1, max: 3 }).map(mib => JSON.stringify({
            jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'openDiff', arguments: { filePath: workspaceFile, newContent: 'x'.repeat(mib * 1024 * 1024) } }
        }));
        const body = fc.oneof(
            { weight: 3, arbitrary: fc.uint8Array({ maxLength: 3000 }).map(bytes => Buffer.from(bytes)) },
            { weight: 6, arbitrary: message.map(value => JSON.stringify(value)) },
            { weight: 2, arbitrary: fc.array(message, { maxLength: 5 }).map(value => JSON.stringify(value)) },
            { weight: 2, arbitrary: fc.jsonValue().map(value => JSON.stringify(value)) },
            { weight: 2, arbitrary: fc.string() },
            { weight: 1, arbitrary: deepNesting },
            { weight: 1, arbitrary: deepParams },
            { weight: 1, arbitrary: hugeString },
            { weight: 1, arbitrary: fc.constant(undefined) });
        const anything: fc.Arbitrary<FuzzRequest> = fc.record({
            method: fc.oneof({ weight: 10, arbitrary: fc.constant('POST') }, fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS')),
            path: fc.oneof({ weight: 12, arbitrary: fc.constant('/mcp') }, fc.constantFrom('/', '/mcp/', '/MCP', '/mcp?x=1', '/%00', '/../etc/passwd', '/mcp#x')),
            authorization, host, origin, session, contentType, accept,
            oversizedHeader: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, fc.constant(true)),
            body
        }).map(({
            method, path: requestPath, authorization: auth, host: hostHeader, origin: originHeader, session: sessionId,
            contentType: type, accept: acceptHeader, oversizedHeader, body: payload
        }) => {
            const headers: Record<string, string> = { Host: hostHeader, 'Content-Type': type };
            for (const [name, value] of [['Authorization', auth], ['Origin', originHeader], ['Mcp-Session-Id', sessionId], ['Accept', acceptHeader]] as const) {
                if (value !== undefined) {
                    headers[name] = value;
                }
            }
            if (oversizedHeader) {
                headers['X-Padding'] = 'p'.repeat(40000);
            }
            if (method === 'DELETE' && sessionId === liveSession) {
                // Ending the live session is allowed (it is how a CLI says goodbye) and would starve the deep requests.
                headers['Mcp-Session-Id'] = 'not-the-live-session';
            }
            return { method, path: requestPath, headers, body: method === 'GET' && sessionId === liveSession ? undefined : payload };
        });
        // Requests that pass every check of the envelope, so that the JSON-RPC layer, the tools and their
        // argument validation are fuzzed too, not only the guard.
        const toolCall = fc.record({
            jsonrpc: fc.constant('2.0'),
            id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })),
            method: fc.constant('tools/call'),
            params: fc.record({ name: fc.oneof({ weight: 4, arbitrary: toolName }, fc.string()), arguments: toolArguments }, { requiredKeys: ['name'] })
        });
        const deep: fc.Arbitrary<FuzzRequest> = fc.oneof(
            { weight: 4, arbitrary: toolCall.map(value => JSON.stringify(value)) },
            { weight: 2, arbitrary: message.map(value => JSON.stringify(value)) },
            { weight: 1, arbitrary: fc.array(fc.oneof(toolCall, message), { minLength: 1, maxLength: 4 }).map(value => JSON.stringify(value)) },
            { weight: 1, arbitrary: deepParams },
            { weight: 1, arbitrary: fc.uint8Array({ maxLength: 500 }).map(bytes => Buffer.from(bytes)) }
        ).map(payload => ({
            method: 'POST', path: '/mcp', body: payload,
            headers: {
                Host: `127.0.0.1:${port}`, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json',
                Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': liveSession
            }
        }));
        const request = fc.oneof({ weight: 5, arbitrary: deep }, { weight: 5, arbitrary: anything });

        const statuses = new Map<number, number>();
        let sent = 0;
        const started = Date.now();
        try {
            await fc.assert(fc.asyncProperty(request, async fuzz => {
                let response: RawResponse;
                try {
                    response = await rawRequest(port, fuzz);
                } catch (error) {
                    // The server may cut a connection it refuses (oversized headers): that is an answer too.
                    const code = (error as NodeJS.ErrnoException).code;
                    expect(code, String(error)).to.be.oneOf(['ECONNRESET', 'EPIPE', 'HPE_HEADER_OVERFLOW']);
                    return;
                }
                sent++;
                statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
                expect(response.status, `${fuzz.method} ${fuzz.path} ${JSON.stringify(fuzz.headers).slice(0, 300)} ${String(fuzz.body).slice(0, 300)}`
                    + ` → ${response.body.slice(0, 300)}`)
                    .to.be.below(500);
            }), { numRuns: 2500, interruptAfterTimeLimit: 90000, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) });
        } finally {
            process.off('unhandledRejection', onUnhandled);
        }
        expect(sent, 'requests answered').to.be.greaterThan(1000);
        const liveSessionLog = logger.lines.filter(line => line.includes(liveSession));
        expect(statuses.get(200) ?? 0, `requests that reached the JSON-RPC layer; statuses ${JSON.stringify([...statuses])}; `
            + `the live session's log: ${JSON.stringify(liveSessionLog)}`).to.be.greaterThan(300);
        expect(browser.shown, 'diffs the fuzzer got shown in the window').to.be.greaterThan(0);
        expect(Date.now() - started).to.be.below(120000);
        expect(unhandled, 'unhandled rejections').to.deep.equal([]);
        expect(logger.lines.filter(line => line.startsWith('ERROR')), 'errors logged').to.deep.equal([]);

        // A real client is served normally afterwards.
        await live.client.close().catch(() => undefined);
        const after = await connectTestClient(port, token, 'after-fuzzing', '1.0.0');
        const tools = await after.client.listTools();
        expect(tools.tools.map(tool => tool.name).sort()).to.deep.equal(['closeDiff', 'openDiff', ...IDE_CONTEXT_TOOL_NAMES].sort());
        const closed = await after.client.callTool({ name: 'closeDiff', arguments: { filePath: workspaceFile } });
        expect(closed.isError).to.not.equal(true);
        await after.client.close();

        // Sessions the fuzzer initialized and abandoned time out; memory comes back.
        await until(() => window.status.sessions.length === 0, 'abandoned sessions to time out', 30000);
        const heapAfter = liveHeapMiB();
        expect(heapAfter - heapBefore, `live memory ${heapBefore.toFixed(1)} → ${heapAfter.toFixed(1)} MiB; statuses ${JSON.stringify([...statuses])}`).to.be.below(16);
    });
});
