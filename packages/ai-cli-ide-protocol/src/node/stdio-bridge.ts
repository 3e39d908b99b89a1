import * as fs from 'fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isJSONRPCRequest, isJSONRPCResponse, JSONRPCMessage, JSONRPCRequest, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { Readable, Writable } from 'stream';
import { CLI_STDIO_MESSAGE_LIMIT, MCP_ENDPOINT_PATH, MCP_MAX_REQUEST_BYTES } from '../common/companion-identity';
import { DiscoveryEndpointSchema } from '../common/discovery-files';
import { safeJson } from '../common/safe-json';
import { describeError, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

export interface StdioBridgeOptions {
    /** The discovery file naming the window server; the token is read from it, never from argv. */
    readonly discoveryFile: string;
    readonly stdin?: Readable;
    readonly stdout?: Writable;
    /** Diagnostics only (stderr); never receives the token. */
    readonly log?: (message: string) => void;
}

/**
 * Relays MCP between a CLI that spawned us over stdio and a window server's Streamable HTTP
 * endpoint on 127.0.0.1. Inside a container the Gemini CLI dials host.docker.internal instead of
 * loopback and then falls back to the discovery file's `stdio` command: this process.
 * Messages pass through unchanged; the only state kept is the negotiated protocol version, which the
 * HTTP transport must echo in a header.
 */
export class McpStdioBridge {
    protected readonly log: (message: string) => void;
    protected stdio?: StdioServerTransport;
    protected http?: StreamableHTTPClientTransport;
    protected readonly pendingInitialize = new Set<string | number>();
    protected closing = false;
    protected readonly closed: Promise<void>;
    protected resolveClosed!: () => void;

    constructor(protected readonly options: StdioBridgeOptions) {
        this.log = options.log ?? (() => { /* silent */ });
        this.closed = new Promise(resolve => this.resolveClosed = resolve);
    }

    /** Resolves once both sides are up; {@link whenClosed} resolves when either side goes away. */
    async start(): Promise<void> {
        const endpoint = readDiscoveryEndpoint(this.options.discoveryFile);
        const url = new URL(`http://127.0.0.1:${endpoint.port}${MCP_ENDPOINT_PATH}`);
        this.http = new StreamableHTTPClientTransport(url, {
            requestInit: { headers: { Authorization: `Bearer ${endpoint.authToken}` } },
            // A window server that is gone should end the bridge quickly, so the CLI shows Disconnected.
            reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 2, maxRetries: 2 }
        });
        // The SDK's stdio transport reads 10 MiB per message at most and ends the connection beyond it; the
        // relay reads what the window server takes, so a large proposal gets an answer instead.
        this.stdio = new StdioServerTransport(this.options.stdin, this.options.stdout, { maxBufferSize: MCP_MAX_REQUEST_BYTES + RELAY_READ_SLACK_BYTES });

        this.http.onmessage = message => this.toCli(message);
        this.http.onerror = error => this.onUpstreamError(error);
        this.http.onclose = () => this.close('the window server closed the session');
        this.stdio.onmessage = message => this.toServer(message);
        this.stdio.onerror = error => this.log(`stdio: ${error.message}`);
        this.stdio.onclose = () => this.close('the CLI closed stdin');

        await this.http.start();
        await this.stdio.start();
        this.options.stdin?.once('end', () => this.close('the CLI closed stdin'));
    }

    whenClosed(): Promise<void> {
        return this.closed;
    }

    protected toServer(message: JSONRPCMessage): void {
        if (isJSONRPCRequest(message) && message.method === 'initialize') {
            this.pendingInitialize.add(message.id);
        }
        const tooLarge = isJSONRPCRequest(message) ? proposalTooLargeForCli(message) : undefined;
        if (tooLarge && isJSONRPCRequest(message)) {
            // The answer (the accepted file in ide/diffAccepted) could not reach the CLI over stdio: it would end its
            // connection. The CLI gets a tool error now (Gemini CLI then asks in the terminal) and stays connected.
            this.log(`refused an openDiff of ${tooLarge}: larger than a CLI reads over stdio`);
            this.toCli({ jsonrpc: '2.0', id: message.id, result: { isError: true, content: [{ type: 'text', text: describeTooLarge(tooLarge) }] } });
            return;
        }
        this.http!.send(message).catch(error => {
            const reason = describeError(error);
            this.log(`upstream send failed: ${reason}`);
            if (isJSONRPCRequest(message)) {
                // Never leave the CLI waiting on a request the server will not answer.
                this.toCli({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.ConnectionClosed, message: `Theia companion unreachable: ${reason}` } });
            }
            if (/ECONNREFUSED|fetch failed|HTTP 404/.test(reason)) {
                this.close('the window server is gone').catch(error => this.log(`could not close: ${error}`));
            }
        });
    }

    protected toCli(message: JSONRPCMessage): void {
        if (isJSONRPCResponse(message) && this.pendingInitialize.delete(message.id)) {
            const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
            if (typeof version === 'string') {
                this.http!.setProtocolVersion(version);
            }
        }
        this.stdio?.send(message).catch(error => this.log(`stdout write failed: ${describeError(error)}`));
    }

    protected onUpstreamError(error: Error): void {
        this.log(`upstream: ${error.message}`);
        if (/Maximum reconnection attempts|Failed to reconnect|ECONNREFUSED/.test(error.message)) {
            this.close('the window server stopped answering').catch(error => this.log(`could not close: ${error}`));
        }
    }

    async close(reason: string): Promise<void> {
        if (this.closing) {
            return;
        }
        this.closing = true;
        this.log(`closing: ${reason}`);
        try {
            await this.http?.terminateSession().catch(() => undefined);
            await this.http?.close();
            await this.stdio?.close();
        } finally {
            this.resolveClosed();
        }
    }
}

/** Room for the JSON-RPC envelope and a partly read next message around the largest request body. */
const RELAY_READ_SLACK_BYTES = 1024 * 1024;

/**
 * The size of an openDiff proposal whose answer could not reach the CLI over stdio, if this is one. The
 * answer carries the file as a JSON string: its escaped length is what counts.
 */
function proposalTooLargeForCli(request: JSONRPCRequest): string | undefined {
    const params = request.params as { name?: unknown; arguments?: { newContent?: unknown } } | undefined;
    if (request.method !== 'tools/call' || params?.name !== 'openDiff' || typeof params.arguments?.newContent !== 'string') {
        return undefined;
    }
    const content = params.arguments.newContent;
    // Cheap bound first: a string of n UTF-16 units is at most 3n bytes of UTF-8 before escaping.
    if (content.length * 3 < CLI_STDIO_MESSAGE_LIMIT - ANSWER_ENVELOPE_BYTES) {
        return undefined;
    }
    const answerBytes = Buffer.byteLength(JSON.stringify(content)) + ANSWER_ENVELOPE_BYTES;
    return answerBytes > CLI_STDIO_MESSAGE_LIMIT ? `${(answerBytes / 1048576).toFixed(1)} MiB` : undefined;
}

/** The ide/diffAccepted notification around the content, with the file's path (a generous bound). */
const ANSWER_ENVELOPE_BYTES = 16 * 1024;

function describeTooLarge(size: string): string {
    return `This proposal is too large to review in the IDE over the stdio relay: the answer would be ${size}, `
        + `and the CLI reads at most ${CLI_STDIO_MESSAGE_LIMIT / 1048576} MiB per message over stdio. Review it in the terminal.`;
}

/**
 * Reads the port and token of a discovery file that this user owns and nobody else can read. The file
 * is opened without following a symbolic link and judged by the open descriptor, so what is checked
 * is what is read; a named pipe is refused, not waited on.
 */
export function readDiscoveryEndpoint(file: string): { port: number; authToken: string } {
    let fd: number;
    try {
        fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
            throw new Error(`${file} is a symbolic link, not a discovery file the companion wrote`);
        }
        throw error;
    }
    try {
        const stat = fs.fstatSync(fd);
        if (!stat.isFile()) {
            throw new Error(`${file} is not a regular file`);
        }
        const uid = process.getuid?.();
        if (uid !== undefined && stat.uid !== uid) {
            throw new Error(`${file} is not owned by this user`);
        }
        if ((stat.mode & 0o077) !== 0) {
            throw new Error(`${file} is readable by other users (mode ${(stat.mode & 0o777).toString(8)})`);
        }
        const parsed = DiscoveryEndpointSchema.safeParse(safeJson(fs.readFileSync(fd, 'utf8')));
        if (!parsed.success) {
            throw new Error(`${file} is not a companion discovery file: ${formatZodIssues(parsed.error, 'file')}`);
        }
        return { port: parsed.data.port, authToken: parsed.data.authToken };
    } finally {
        fs.closeSync(fd);
    }
}
