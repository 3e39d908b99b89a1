import { expect } from 'chai';
import { fetchAgentIcon } from './fetch-agent-icon';
import { expectFailure } from './test/expect-failure';
import { LoopbackServer } from './test/loopback-server';

const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7"/></svg>';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);

/** A registry agent's icon, fetched once and shown from then on as a data URL. */
describe('fetchAgentIcon', () => {
    let server: LoopbackServer;
    const bodies: Record<string, { body: string | Buffer; type: string }> = {
        '/icon.svg': { body: SVG, type: 'image/svg+xml' },
        // Judged by its bytes: a PNG served as text is a PNG.
        '/icon.png': { body: PNG, type: 'text/plain' },
        '/page.html': { body: '<html><script>alert(1)</script></html>', type: 'image/svg+xml' },
        '/huge.svg': { body: `<svg>${'x'.repeat(300 * 1024)}</svg>`, type: 'image/svg+xml' }
    };

    before(async () => {
        server = await LoopbackServer.start((request, response) => {
            const entry = bodies[request.url ?? ''];
            return entry ? response.writeHead(200, { 'content-type': entry.type }).end(entry.body) : response.writeHead(404, 'Not Found').end();
        });
    });
    after(() => server.close());

    it('answers an SVG or a PNG as a data URL of its bytes', async () => {
        expect(await fetchAgentIcon(server.url('/icon.svg'))).to.equal(`data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}`);
        expect(await fetchAgentIcon(server.url('/icon.png'))).to.equal(`data:image/png;base64,${PNG.toString('base64')}`);
    });

    it('keeps an inline SVG or PNG data URL as it is, and refuses other inline types', async () => {
        const inline = `data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}`;
        expect(await fetchAgentIcon(inline)).to.equal(inline);
        await expectFailure(fetchAgentIcon('data:text/html,<script>alert(1)</script>'), /must be an SVG or PNG data URL/);
    });

    it('refuses what is not an image, what is too large, a missing icon, and http beyond loopback', async () => {
        await expectFailure(fetchAgentIcon(server.url('/page.html')), /neither an SVG nor a PNG image/);
        await expectFailure(fetchAgentIcon(server.url('/huge.svg')), /./);
        await expectFailure(fetchAgentIcon(server.url('/missing.svg')), /HTTP 404/);
        await expectFailure(fetchAgentIcon('http://example.org/icon.svg'), /only https URLs are allowed/);
    });
});
