import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface TestClient {
    readonly client: Client;
    readonly transport: StreamableHTTPClientTransport;
    /** Every `ide/*` notification received, in order. */
    readonly notifications: { method: string; params: unknown }[];
    /** The params of every `ide/contextUpdate` received, in order. */
    readonly updates: unknown[];
}

/** A real MCP SDK client on a window server, recording the IDE notifications it receives. */
export async function connectTestClient(port: number, token: string, name = 'spec-client', version = '1.2.3'): Promise<TestClient> {
    const client = new Client({ name, version });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    const notifications: { method: string; params: unknown }[] = [];
    const updates: unknown[] = [];
    client.fallbackNotificationHandler = async notification => {
        if (notification.method.startsWith('ide/')) {
            notifications.push({ method: notification.method, params: notification.params });
        }
        if (notification.method === 'ide/contextUpdate') {
            updates.push(notification.params);
        }
    };
    await client.connect(transport);
    return { client, transport, notifications, updates };
}

export { until } from '../../common/test/until';
