import { expect } from 'chai';
import * as http from 'http';
import { PUBLISHED_REGISTRY_JSON } from '../../common/registry/test/published-registry';
import { AcpRegistryClient } from './acp-registry-client';
import { escapeRegExp, expectFailure } from './test/expect-failure';
import { LoopbackServer } from './test/loopback-server';

const INDEX = {
    version: '1.0.0',
    agents: [
        { id: 'gemini', name: 'Gemini CLI', version: '0.27.3', description: 'Google\'s official CLI for Gemini', distribution: { npx: { package: '@google/gemini-cli@0.27.3' } } },
        { id: 'broken', name: 'Broken', version: '1.0.0', description: '', distribution: { npx: { package: 'file:/etc' } } }
    ],
    extensions: []
};

/** The registry index over a real socket on 127.0.0.1: what the network can answer, and what the user reads then. */
describe('AcpRegistryClient', function (): void {
    this.timeout(10_000);
    let server: LoopbackServer;
    let routes: Record<string, http.RequestListener>;

    before(async () => {
        server = await LoopbackServer.start((request, response) => (routes[request.url ?? ''] ?? ((_, res) => res.writeHead(404, 'Not Found').end()))(request, response));
    });
    beforeEach(() => {
        routes = {};
    });
    after(() => server.close());

    const json = (body: unknown): http.RequestListener => (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

    it('answers the valid agents and a problem for each invalid one', async () => {
        routes['/registry.json'] = json(INDEX);
        const parsed = await new AcpRegistryClient({ url: server.url('/registry.json') }).fetchRegistry();
        expect(parsed.agents.map(agent => agent.id)).to.deep.equal(['gemini']);
        expect(parsed.problems).to.deep.equal(['Agent "broken" is left out: distribution.npx.package: must be an npm package name with an optional @version']);
    });

    it('reads the published registry as the CDN serves it', async () => {
        routes['/registry/v1/latest/registry.json'] = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(PUBLISHED_REGISTRY_JSON);
        const parsed = await new AcpRegistryClient({ url: server.url('/registry/v1/latest/registry.json') }).fetchRegistry();
        expect(parsed.agents).to.have.length(11);
        expect(parsed.problems).to.deep.equal([]);
    });

    it('fetches the published registry by default', () => {
        expect(new AcpRegistryClient().url).to.equal('https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json');
    });

    it('says which status the server answered', async () => {
        const url = server.url('/missing.json');
        await expectFailure(new AcpRegistryClient({ url }).fetchRegistry(), `Could not download the ACP registry: ${url} answered HTTP 404 Not Found`);
    });

    it('says when the answer is not JSON, and how it starts', async () => {
        routes['/registry.json'] = (_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Captive portal</title>');
        const url = server.url('/registry.json');
        await expectFailure(new AcpRegistryClient({ url }).fetchRegistry(),
            `The ACP registry at ${url} is not JSON (it starts with "<!doctype html><title>Captive portal</ti"): Unexpected token`);
    });

    it('says when the JSON is not a registry', async () => {
        routes['/registry.json'] = json({ agents: 'none' });
        const url = server.url('/registry.json');
        await expectFailure(new AcpRegistryClient({ url }).fetchRegistry(),
            `This is not an ACP registry index: version: Required; agents: Expected array, received string (from ${url})`);
    });

    it('gives up on a server that does not answer in time', async () => {
        routes['/slow.json'] = () => undefined;
        const url = server.url('/slow.json');
        const started = Date.now();
        await expectFailure(new AcpRegistryClient({ url, timeoutMs: 300 }).fetchRegistry(), `Downloading the ACP registry from ${url} took longer than 300 ms; gave up`);
        expect(Date.now() - started).to.be.lessThan(3000);
    });

    it('gives up on a server that stops sending halfway', async () => {
        routes['/stalls.json'] = (_, response) => response.writeHead(200, { 'content-type': 'application/json' }).write('{"version": "1.0.0", "agents": [');
        await expectFailure(new AcpRegistryClient({ url: server.url('/stalls.json'), timeoutMs: 300 }).fetchRegistry(), /took longer than 300 ms; gave up/);
    });

    it('refuses an answer larger than the limit, whether announced or streamed', async () => {
        const big = JSON.stringify({ ...INDEX, padding: 'x'.repeat(4096) });
        routes['/announced.json'] = (_, response) => response.writeHead(200, { 'content-length': Buffer.byteLength(big) }).end(big);
        routes['/streamed.json'] = (_, response) => {
            response.writeHead(200, { 'content-type': 'application/json' });
            response.write(big.slice(0, 2048));
            response.end(big.slice(2048));
        };
        const announced = server.url('/announced.json');
        await expectFailure(new AcpRegistryClient({ url: announced, maxBytes: 1024 }).fetchRegistry(),
            `Refusing the ACP registry from ${announced}: it is larger than the limit of 1 KiB (4 KiB or more)`);
        await expectFailure(new AcpRegistryClient({ url: server.url('/streamed.json'), maxBytes: 1024 }).fetchRegistry(), /it is larger than the limit of 1 KiB/);
    });

    it('follows redirects that stay on https (or loopback), and refuses one that leaves it', async () => {
        routes['/registry.json'] = json(INDEX);
        routes['/moved.json'] = (_, response) => response.writeHead(302, { location: '/registry.json' }).end();
        routes['/away.json'] = (_, response) => response.writeHead(301, { location: 'http://registry.example/registry.json' }).end();
        expect((await new AcpRegistryClient({ url: server.url('/moved.json') }).fetchRegistry()).agents).to.have.length(1);
        await expectFailure(new AcpRegistryClient({ url: server.url('/away.json') }).fetchRegistry(),
            `Refusing to download the ACP registry: ${server.url('/away.json')} redirected to http://registry.example/registry.json, which is not https`);
    });

    it('says when nothing listens at the address', async () => {
        const closed = await LoopbackServer.start(() => undefined);
        const url = closed.url('/registry.json');
        await closed.close();
        await expectFailure(new AcpRegistryClient({ url }).fetchRegistry(), new RegExp(`^Could not download the ACP registry from ${escapeRegExp(url)}: .*ECONNREFUSED`));
    });

    it('refuses plain http anywhere but the loopback address', async () => {
        await expectFailure(new AcpRegistryClient({ url: 'http://registry.example/registry.json' }).fetchRegistry(),
            'Refusing to download the ACP registry from http://registry.example/registry.json: only https URLs are allowed (http only to 127.0.0.1, localhost or [::1])');
    });
});
