import * as fs from 'fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * A user's MCP server as Theia AI's settings name one (a command speaking MCP on stdio), with one
 * tool, `shout`, that upper-cases its text. Each call is appended to `SHOUT_MCP_LOG`, so a test can
 * see that an agent called it.
 */
const log = process.env.SHOUT_MCP_LOG;
const server = new Server({ name: 'shout', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'shout', description: 'Upper-cases a text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }]
}));
server.setRequestHandler(CallToolRequestSchema, async request => {
    const text = String(request.params.arguments?.text ?? '');
    if (log) {
        fs.appendFileSync(log, `${JSON.stringify({ tool: request.params.name, text })}\n`);
    }
    return { content: [{ type: 'text', text: text.toUpperCase() }] };
});
void server.connect(new StdioServerTransport());
