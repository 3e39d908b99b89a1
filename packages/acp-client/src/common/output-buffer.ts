/**
 * A command's output as an ACP agent may read it: at most `limitBytes` of UTF-8, keeping the end
 * (the protocol says output beyond the limit is dropped from the beginning), never cutting a
 * character in two.
 */
export class OutputBuffer {
    protected chunks: Buffer[] = [];
    protected bytes = 0;
    protected _truncated = false;

    constructor(protected readonly limitBytes?: number) { }

    append(data: string | Buffer): void {
        const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        this.chunks.push(chunk);
        this.bytes += chunk.length;
        if (this.limitBytes !== undefined && this.bytes > this.limitBytes) {
            this.trim(this.limitBytes);
        }
    }

    get truncated(): boolean {
        return this._truncated;
    }

    get text(): string {
        return Buffer.concat(this.chunks).toString('utf8');
    }

    protected trim(limit: number): void {
        const all = Buffer.concat(this.chunks);
        let start = all.length - limit;
        // Continuation bytes are 10xxxxxx: move forward to the start of a character.
        while (start < all.length && (all[start] & 0xC0) === 0x80) {
            start++;
        }
        const kept = all.subarray(start);
        this.chunks = [Buffer.from(kept)];
        this.bytes = kept.length;
        this._truncated = true;
    }
}
