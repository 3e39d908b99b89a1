/** What is kept of a command's output when the agent gives no `outputByteLimit`: a command may print without end. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;
/** The most that is kept of one command's output, whatever limit the agent asks for. */
export const MAX_OUTPUT_BYTE_LIMIT = 16 * 1024 * 1024;

/**
 * A command's output as an ACP agent may read it: at most `limitBytes` of UTF-8 (by default
 * {@link DEFAULT_OUTPUT_BYTE_LIMIT}, never more than {@link MAX_OUTPUT_BYTE_LIMIT}), keeping the end
 * (the protocol says output beyond the limit is dropped from the beginning, and `truncated` says so),
 * never cutting a character in two.
 */
export class OutputBuffer {
    protected chunks: Buffer[] = [];
    protected bytes = 0;
    protected dropped = false;
    readonly limitBytes: number;

    constructor(limitBytes?: number | null) {
        this.limitBytes = Math.max(0, Math.min(limitBytes ?? DEFAULT_OUTPUT_BYTE_LIMIT, MAX_OUTPUT_BYTE_LIMIT));
    }

    append(data: string | Buffer): void {
        const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        this.chunks.push(chunk);
        this.bytes += chunk.length;
        // Trimmed once twice the limit is held, not on every chunk: copying the whole tail per chunk is quadratic.
        if (this.bytes > 2 * this.limitBytes) {
            this.trim();
        }
    }

    get truncated(): boolean {
        return this.dropped || this.bytes > this.limitBytes;
    }

    get text(): string {
        if (this.bytes > this.limitBytes) {
            this.trim();
        }
        return Buffer.concat(this.chunks).toString('utf8');
    }

    protected trim(): void {
        const all = Buffer.concat(this.chunks);
        let start = all.length - this.limitBytes;
        // Continuation bytes are 10xxxxxx: move forward to the start of a character.
        while (start < all.length && (all[start] & 0xC0) === 0x80) {
            start++;
        }
        const kept = all.subarray(start);
        this.chunks = [Buffer.from(kept)];
        this.bytes = kept.length;
        this.dropped = true;
    }
}
