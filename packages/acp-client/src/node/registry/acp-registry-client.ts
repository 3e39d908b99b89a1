import { ParsedAcpRegistry, parseAcpRegistry } from '../../common/registry/parse-acp-registry';
import { ACP_REGISTRY_URL } from '../../common/registry/registry-url';
import { downloadBounded } from './bounded-download';

export interface AcpRegistryClientOptions {
    /** The index to read; the published registry by default. */
    readonly url?: string;
    /** 15 s by default: the index is small (tens of KiB), a longer wait means the network is not there. */
    readonly timeoutMs?: number;
    /** 5 MiB by default, hundreds of times today's index: a bigger answer is not the registry. */
    readonly maxBytes?: number;
}

/**
 * Reads the ACP Registry's index. Each call downloads it afresh (the CDN caches it for five
 * minutes); keeping it is the caller's choice. Answers the valid agents and a sentence for each entry
 * left out; throws one sentence when the index cannot be had at all.
 */
export class AcpRegistryClient {
    readonly url: string;
    protected readonly timeoutMs: number;
    protected readonly maxBytes: number;

    constructor(options: AcpRegistryClientOptions = {}) {
        this.url = options.url ?? ACP_REGISTRY_URL;
        this.timeoutMs = options.timeoutMs ?? 15_000;
        this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    }

    async fetchRegistry(signal?: AbortSignal): Promise<ParsedAcpRegistry> {
        const chunks: Uint8Array[] = [];
        await downloadBounded(this.url, { what: 'the ACP registry', timeoutMs: this.timeoutMs, maxBytes: this.maxBytes, signal }, chunk => {
            chunks.push(chunk);
        });
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
            json = JSON.parse(text);
        } catch (error) {
            const start = text.trimStart().slice(0, 40).replace(/\s+/g, ' ');
            throw new Error(`The ACP registry at ${this.url} is not JSON (it starts with ${JSON.stringify(start)}): ${(error as Error).message}`);
        }
        try {
            return parseAcpRegistry(json, { baseUrl: this.url });
        } catch (error) {
            throw new Error(`${(error as Error).message} (from ${this.url})`);
        }
    }
}
