import { expect } from 'chai';
import { mcpServersForAgent, sharedMcpServersOf } from './theia-mcp-servers';

describe('The MCP servers configured for Theia AI, given to ACP agents', () => {
    it('turns commands into stdio servers and URLs into HTTP servers with their token and headers', () => {
        const { servers, problems } = sharedMcpServersOf({
            echo: { command: 'node', args: ['echo.js'], env: { LEVEL: 'debug' }, autostart: true },
            remote: { serverUrl: 'https://mcp.example.com/mcp', serverAuthToken: 'secret', headers: { 'X-Team': 'blue' } },
            custom: { serverUrl: 'http://127.0.0.1:7000/mcp', serverAuthToken: 'k', serverAuthTokenHeader: 'X-Api-Key' }
        });
        expect(problems).to.deep.equal([]);
        expect(servers).to.deep.equal([
            { name: 'echo', command: 'node', args: ['echo.js'], env: [{ name: 'LEVEL', value: 'debug' }] },
            { type: 'http', name: 'remote', url: 'https://mcp.example.com/mcp', headers: [{ name: 'X-Team', value: 'blue' }, { name: 'Authorization', value: 'Bearer secret' }] },
            { type: 'http', name: 'custom', url: 'http://127.0.0.1:7000/mcp', headers: [{ name: 'X-Api-Key', value: 'k' }] }
        ]);
    });

    it('leaves out, naming each and why: a bad entry, the IDE server\'s name, OAuth servers, a bad name; keeps the rest', () => {
        const { servers, problems } = sharedMcpServersOf({
            empty: { command: '' },
            theia: { command: 'node' },
            'bad name!': { command: 'node' },
            oauth: { serverUrl: 'https://mcp.example.com', oauth: { clientId: 'x' } },
            file: { serverUrl: 'file:///etc/passwd' },
            good: { command: 'node' }
        });
        expect(servers.map(server => server.name)).to.deep.equal(['good']);
        expect(problems).to.have.length(5);
        expect(problems[0]).to.match(/^MCP server "empty" is left out: .*command.*must name the executable/);
        expect(problems[1]).to.match(/"theia" is left out: the IDE's own server has that name/);
        expect(problems[2]).to.match(/"bad name!" is left out: its name must be/);
        expect(problems[3]).to.match(/"oauth" is left out: it signs in with OAuth/);
        expect(problems[4]).to.match(/"file" is left out: .*http\(s\) URL/);
        expect(sharedMcpServersOf(['x']).problems[0]).to.match(/must be an object of servers by name, not an array/);
        expect(sharedMcpServersOf(undefined)).to.deep.equal({ servers: [], problems: [] });
    });

    it('gives an agent stdio servers always, URLs over HTTP where it takes HTTP, SSE where that is all, and says what it left out', () => {
        const { servers } = sharedMcpServersOf({ echo: { command: 'node' }, remote: { serverUrl: 'http://127.0.0.1:7000/mcp' } });
        expect(mcpServersForAgent(servers, { http: true }).servers.map(server => 'type' in server ? server.type : 'stdio')).to.deep.equal(['stdio', 'http']);
        expect(mcpServersForAgent(servers, { sse: true }).servers.map(server => 'type' in server ? server.type : 'stdio')).to.deep.equal(['stdio', 'sse']);
        const none = mcpServersForAgent(servers, undefined);
        expect(none.servers.map(server => server.name)).to.deep.equal(['echo']);
        expect(none.leftOut).to.deep.equal([{ name: 'remote', reason: 'the agent takes no MCP servers over HTTP' }]);
    });
});
