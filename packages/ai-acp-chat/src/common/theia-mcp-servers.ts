import type * as acp from '@agentclientprotocol/sdk';
import { z } from 'zod';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

/** Where Theia AI (`@theia/ai-mcp`) keeps the user's MCP servers, by name. */
export const THEIA_MCP_SERVERS_PREF = 'ai-features.mcp.mcpServers';

/** The name of the window's own IDE server in every agent session: a user's server may not take it. */
export const IDE_MCP_SERVER_NAME = 'theia';

const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

const LocalServerSchema = z.object({
    command: z.string().trim().min(1, 'must name the executable to start'),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({})
}).passthrough();

const RemoteServerSchema = z.object({
    serverUrl: z.string().url().refine(url => /^https?:/.test(url), 'must be an http(s) URL'),
    serverAuthToken: z.string().optional(),
    serverAuthTokenHeader: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional()
}).passthrough();

/** A user's MCP server, as any agent can be given it: a command (stdio) or a URL (HTTP, or SSE where that is all the agent takes). */
export type SharedMcpServer = acp.McpServerStdio | (acp.McpServerHttp & { type: 'http' });

export interface SharedMcpServers {
    readonly servers: SharedMcpServer[];
    /** One sentence per server left out, naming it and what was wrong. */
    readonly problems: string[];
}

/**
 * The MCP servers of Theia AI's setting as ACP `mcpServers`, each checked: a bad entry is reported and
 * left out, the others are kept. OAuth servers are left out (their tokens live in Theia's backend).
 */
export function sharedMcpServersOf(value: unknown): SharedMcpServers {
    const servers: SharedMcpServer[] = [];
    const problems: string[] = [];
    if (value === undefined || value === null) {
        return { servers, problems };
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
        return { servers, problems: [`${THEIA_MCP_SERVERS_PREF} must be an object of servers by name, not ${Array.isArray(value) ? 'an array' : typeof value}`] };
    }
    for (const [name, entry] of Object.entries(value)) {
        if (!SERVER_NAME.test(name) || name === IDE_MCP_SERVER_NAME) {
            const why = name === IDE_MCP_SERVER_NAME ? 'the IDE\'s own server has that name' : 'its name must be 1–64 letters, digits, "_", "-" or "."';
            problems.push(`MCP server "${name}" is left out: ${why}`);
            continue;
        }
        const isRemote = typeof entry === 'object' && entry !== null && 'serverUrl' in entry;
        if (isRemote && 'oauth' in entry) {
            problems.push(`MCP server "${name}" is left out: it signs in with OAuth, which only Theia AI itself can do`);
            continue;
        }
        const server = isRemote ? remoteServer(name, entry) : localServer(name, entry);
        if (typeof server === 'string') {
            problems.push(`MCP server "${name}" is left out: ${server}`);
        } else {
            servers.push(server);
        }
    }
    return { servers, problems };
}

function remoteServer(name: string, entry: unknown): SharedMcpServer | string {
    const parsed = RemoteServerSchema.safeParse(entry);
    if (!parsed.success) {
        return formatZodIssues(parsed.error, 'entry', ' ');
    }
    const { serverUrl, serverAuthToken, serverAuthTokenHeader, headers } = parsed.data;
    const auth = serverAuthToken ? [{ name: serverAuthTokenHeader ?? 'Authorization', value: serverAuthTokenHeader ? serverAuthToken : `Bearer ${serverAuthToken}` }] : [];
    return { type: 'http', name, url: serverUrl, headers: [...Object.entries(headers ?? {}).map(([header, text]) => ({ name: header, value: text })), ...auth] };
}

function localServer(name: string, entry: unknown): SharedMcpServer | string {
    const parsed = LocalServerSchema.safeParse(entry);
    if (!parsed.success) {
        return formatZodIssues(parsed.error, 'entry', ' ');
    }
    const { command, args, env } = parsed.data;
    return { name, command, args, env: Object.entries(env).map(([variable, text]) => ({ name: variable, value: text })) };
}

export interface AgentMcpServers {
    readonly servers: acp.McpServer[];
    readonly leftOut: { name: string; reason: string }[];
}

/** What an agent can take of the shared servers: stdio always (ACP requires it), URLs over HTTP, or SSE where that is all it takes. */
export function mcpServersForAgent(servers: readonly SharedMcpServer[], capabilities: acp.McpCapabilities | null | undefined): AgentMcpServers {
    const taken: acp.McpServer[] = [];
    const leftOut: { name: string; reason: string }[] = [];
    for (const server of servers) {
        if (!('type' in server)) {
            taken.push(server);
        } else if (capabilities?.http) {
            taken.push(server);
        } else if (capabilities?.sse) {
            taken.push({ ...server, type: 'sse' });
        } else {
            leftOut.push({ name: server.name, reason: 'the agent takes no MCP servers over HTTP' });
        }
    }
    return { servers: taken, leftOut };
}
