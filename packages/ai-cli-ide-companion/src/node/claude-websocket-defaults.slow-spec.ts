import { expect } from 'chai';
import crypto = require('crypto');
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { Container } from '@theia/core/shared/inversify';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { ILogger } from '@theia/core/lib/common/logger';
import { ClaudeCodeFlavour, CliFlavour, DiscoveryEndpoint } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import type { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { IdeCompanionBackendImpl, WindowServerRegistry, WindowModuleContribution } from '@theia-cli-companion/ai-cli-core/lib/node';
import { WindowServer, createWindowServer, claudeWindowModule } from '@theia-cli-companion/ide-companion-server/lib/node/window';
import { RecordingLogger, until, ClaudeWire, refusedWith } from '@theia-cli-companion/ide-companion-server/lib/node/test';
import ideCompanionBackendModule from './ide-companion-backend-module';

const MIB = 1024 * 1024;
const AUTH_HEADER = 'X-Claude-Code-Ide-Authorization';

/** A second CLI on Claude Code's transport, so that the endpoint holds two secrets (its id is in no catalogue, hence the cast). */
const otherClaudeLike: CliFlavour = Object.freeze({
    id: 'claudelike' as CliFlavourId,
    displayName: 'Claude-like CLI',
    transport: 'claude-code-websocket',
    discoveryDirectory: () => path.join(process.env.HOME!, '.claudelike', 'ide'),
    discoveryFileName: (endpoint: DiscoveryEndpoint) => `${endpoint.port}.lock`,
    discoveryFileContent: (endpoint: DiscoveryEndpoint) => ({ port: endpoint.port, authToken: endpoint.authToken }),
    terminalEnvironment: () => ({}),
    ownedFile: () => undefined
});

/**
 * Every comparison crypto.timingSafeEqual makes while `run` goes on, with the lengths of both sides.
 * The compiled code calls it through the `crypto` module object, so replacing it there sees every call.
 */
async function comparisonsDuring(run: () => Promise<unknown>): Promise<[number, number][]> {
    const original = crypto.timingSafeEqual;
    const calls: [number, number][] = [];
    crypto.timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
        calls.push([a.byteLength, b.byteLength]);
        return original(a, b);
    };
    try {
        await run();
    } finally {
        crypto.timingSafeEqual = original;
    }
    return calls;
}

describe('Claude Code\'s WebSocket endpoint: its secret check, its address, its frame limit', function (): void {
    this.timeout(60000);
    let home: ReturnType<typeof useTemporaryHome>;
    let workspace: string;

    beforeEach(() => {
        home = useTemporaryHome();
        workspace = path.join(home.dir, 'project');
        fs.mkdirSync(workspace);
    });
    afterEach(() => home.restore());

    describe('with two secrets on the endpoint', () => {
        let window: WindowServer;
        const secretOf = (flavour: CliFlavour) => JSON.parse(fs.readFileSync(window.discoveryFilePaths.get(flavour.id)!, 'utf8')).authToken as string;

        beforeEach(async () => {
            window = createWindowServer({
                windowId: '00000000-0000-4000-8000-00000000c7a1', flavours: [ClaudeCodeFlavour, otherClaudeLike], logger: new RecordingLogger(), serverPid: process.pid
            }, undefined, [claudeWindowModule]);
            await window.start([workspace]);
        });
        afterEach(() => window.stop());

        it('compares the presented secret with every secret, on equal-length digests, whatever it is (constant time)', async () => {
            const port = window.endpointOf('claude').port;
            const claude = secretOf(ClaudeCodeFlavour);
            const candidates: [string, string, number][] = [
                ['Claude Code\'s secret', claude, 101], ['the other CLI\'s secret', secretOf(otherClaudeLike), 101],
                ['a wrong secret of the same length', 'x'.repeat(claude.length), 401],
                ['a short secret', 'abc', 401], ['an empty secret', '', 401], ['a long secret', 'y'.repeat(4000), 401]
            ];
            for (const [what, secret, expected] of candidates) {
                let status = 0;
                const calls = await comparisonsDuring(async () => {
                    if (expected === 101) {
                        const wire = await ClaudeWire.open(port, { [AUTH_HEADER]: secret });
                        wire.socket.terminate();
                        status = 101;
                    } else {
                        status = await refusedWith(port, { [AUTH_HEADER]: secret });
                    }
                });
                expect(status, what).to.equal(expected);
                expect(calls, `${what}: one comparison per secret, none skipped`).to.deep.equal([[32, 32], [32, 32]]);
            }
        });

        it('listens on 127.0.0.1 only: its port is closed on every other address of this machine', async () => {
            const port = window.endpointOf('claude').port;
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
    });

    describe('as the app builds it (IDE mode\'s backend module, the window registry, no test options)', () => {
        let container: Container;
        let backend: IdeCompanionBackendImpl;

        beforeEach(() => {
            container = new Container();
            container.bind(ILogger).toConstantValue(new RecordingLogger() as unknown as ILogger);
            bindContributionProvider(container.bind.bind(container), WindowModuleContribution);
            container.load(ideCompanionBackendModule);
            container.bind(WindowServerRegistry).toSelf().inSingletonScope();
            container.bind(IdeCompanionBackendImpl).toSelf();
        });
        afterEach(async () => {
            await backend?.detachWindow();
            await container.get(WindowServerRegistry).onStop();
        });

        it('takes a frame of exactly 32 MiB and closes the connection on one byte more (1009)', async () => {
            backend = container.get(IdeCompanionBackendImpl);
            await backend.attachWindow({ rootUris: [FileUri.create(workspace).toString()], flavours: ['claude'] });
            const window = backend.currentWindow!;
            const secret = JSON.parse(fs.readFileSync(window.discoveryFilePaths.get('claude')!, 'utf8')).authToken;
            const wire = await ClaudeWire.open(window.endpointOf('claude').port, { [AUTH_HEADER]: secret });
            let closedWith: number | undefined;
            wire.socket.on('close', code => closedWith = code);

            // Not JSON: read whole, then answered with a parse error on a connection that stays open.
            wire.socket.send('x'.repeat(32 * MIB));
            await until(() => wire.received.length === 1, 'the answer to a 32 MiB frame', 20000);
            expect(wire.received[0].error?.code).to.equal(-32700);
            await wire.handshake();

            wire.socket.send('x'.repeat(32 * MIB + 1));
            await until(() => closedWith !== undefined, 'the connection to close', 20000);
            expect(closedWith).to.equal(1009);
        });
    });
});
