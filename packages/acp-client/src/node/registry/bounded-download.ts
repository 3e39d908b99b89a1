import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { isAllowedDownloadUrl } from '../../common/registry/registry-url';

export interface BoundedDownloadOptions {
    /** What is downloaded, for the errors: `the ACP registry`, `the archive of agent "opencode"`. */
    readonly what: string;
    /** For the whole download, body included. */
    readonly timeoutMs: number;
    readonly maxBytes: number;
    /** Stops the download early (the user cancelled). */
    readonly signal?: AbortSignal;
}

/**
 * Downloads `url` with Node's fetch, handing each chunk to `sink` as it arrives, so that nothing
 * larger than `maxBytes` is ever held or written: a server that sends more (or announces more) is cut
 * off. Every failure is one sentence naming what, from where, and why (HTTP status, timeout, the
 * network's own reason). Redirects are followed, but each must stay on https like the first URL.
 */
export async function downloadBounded(url: string, options: BoundedDownloadOptions, sink: (chunk: Uint8Array) => void | Promise<void>): Promise<number> {
    if (!isAllowedDownloadUrl(url)) {
        throw new Error(`Refusing to download ${options.what} from ${url}: only https URLs are allowed (http only to 127.0.0.1, localhost or [::1])`);
    }
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const failed = (error: unknown): Error => timeout.aborted
        ? new Error(`Downloading ${options.what} from ${url} took longer than ${formatSeconds(options.timeoutMs)}; gave up`)
        : options.signal?.aborted ? new Error(`Downloading ${options.what} from ${url} was cancelled`)
            : new Error(`Could not download ${options.what} from ${url}: ${networkReason(error)}`);
    let response: Response;
    try {
        response = await fetchFollowingSafeRedirects(url, signal, options.what);
    } catch (error) {
        throw error instanceof RefusedRedirectError ? error : failed(error);
    }
    if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`Could not download ${options.what}: ${response.url || url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    }
    const announced = Number(response.headers.get('content-length'));
    if (announced > options.maxBytes) {
        await response.body?.cancel();
        throw tooLarge(options, url, announced);
    }
    return readAll(response, options, url, sink, failed);
}

class RefusedRedirectError extends Error { }

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

/** GitHub's release downloads redirect to its storage; every hop is checked, not only the last (fetch's own following would not tell). */
async function fetchFollowingSafeRedirects(url: string, signal: AbortSignal, what: string): Promise<Response> {
    let current = url;
    for (let hops = 0; ; hops++) {
        const response = await fetch(current, { signal, redirect: 'manual', headers: { 'accept-encoding': 'identity' } });
        const location = response.headers.get('location');
        if (!REDIRECTS.has(response.status) || location === null) {
            return response;
        }
        await response.body?.cancel();
        const next = new URL(location, current).href;
        if (!isAllowedDownloadUrl(next)) {
            throw new RefusedRedirectError(`Refusing to download ${what}: ${current} redirected to ${next}, which is not https`);
        }
        if (hops >= MAX_REDIRECTS) {
            throw new RefusedRedirectError(`Refusing to download ${what} from ${url}: more than ${MAX_REDIRECTS} redirects`);
        }
        current = next;
    }
}

async function readAll(response: Response, options: BoundedDownloadOptions, url: string, sink: (chunk: Uint8Array) => void | Promise<void>,
    failed: (error: unknown) => Error): Promise<number> {
    if (!response.body) {
        return 0;
    }
    const reader = response.body.getReader();
    let received = 0;
    try {
        for (let next = await reader.read(); !next.done; next = await reader.read()) {
            received += next.value.byteLength;
            if (received > options.maxBytes) {
                throw tooLarge(options, url, received);
            }
            await sink(next.value);
        }
        return received;
    } catch (error) {
        await reader.cancel().catch(() => undefined);
        throw error instanceof TooLargeError ? error : failed(error);
    }
}

class TooLargeError extends Error { }

function tooLarge(options: BoundedDownloadOptions, url: string, bytes: number): Error {
    return new TooLargeError(`Refusing ${options.what} from ${url}: it is larger than the limit of ${formatBytes(options.maxBytes)} (${formatBytes(bytes)} or more)`);
}

/** fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, a certificate error) is its cause. */
function networkReason(error: unknown): string {
    const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
    const code = (cause as { code?: unknown } | undefined)?.code;
    const reason = cause ? describeError(cause) : describeError(error);
    return typeof code === 'string' && !reason.includes(code) ? `${reason} (${code})` : reason;
}

function formatSeconds(ms: number): string {
    return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function formatBytes(bytes: number): string {
    return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024 * 10) / 10} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}
