/** One line of a child's output; `cut` when it was longer than the splitter keeps and only its start is here. */
export interface BoundedLine {
    readonly text: string;
    readonly cut: boolean;
}

/**
 * Splits a process's output into lines holding at most `maxLineLength` characters of any one line: a
 * longer line is handed on cut (its start, `cut: true`) as soon as it is that long, and the rest of it,
 * up to its newline, is dropped unread. A process that writes without a newline cannot make it hold
 * more. Chunks may split lines and UTF-8 characters anywhere; `end()` flushes a last line without a
 * newline. A trailing `\r` is removed. Never throws on input.
 */
export class BoundedLineSplitter {
    protected readonly decoder = new TextDecoder('utf-8');
    protected pending = '';
    /** The current line was handed on cut: what is left of it is dropped. */
    protected skipping = false;

    constructor(readonly maxLineLength: number) {
        if (!Number.isSafeInteger(maxLineLength) || maxLineLength <= 0) {
            throw new RangeError(`maxLineLength must be a positive integer, got ${maxLineLength}`);
        }
    }

    push(chunk: Uint8Array | string): BoundedLine[] {
        return this.take(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }), false);
    }

    end(): BoundedLine[] {
        return this.take(this.decoder.decode(), true);
    }

    protected take(text: string, final: boolean): BoundedLine[] {
        const lines: BoundedLine[] = [];
        let start = 0;
        let newline: number;
        while ((newline = text.indexOf('\n', start)) >= 0) {
            if (!this.skipping) {
                this.add(this.pending + text.slice(start, newline), lines);
            }
            this.pending = '';
            this.skipping = false;
            start = newline + 1;
        }
        if (!this.skipping && start < text.length) {
            // Only what may still be kept is appended: a runaway line costs at most maxLineLength.
            this.pending += text.slice(start, start + this.maxLineLength - this.pending.length + 1);
            if (this.pending.length > this.maxLineLength) {
                lines.push({ text: this.pending.slice(0, this.maxLineLength), cut: true });
                this.pending = '';
                this.skipping = true;
            }
        }
        if (final) {
            if (!this.skipping && this.pending) {
                this.add(this.pending, lines);
            }
            this.pending = '';
            this.skipping = false;
        }
        return lines;
    }

    protected add(line: string, into: BoundedLine[]): void {
        const text = line.endsWith('\r') ? line.slice(0, -1) : line;
        if (text.length > this.maxLineLength) {
            into.push({ text: text.slice(0, this.maxLineLength), cut: true });
        } else {
            into.push({ text, cut: false });
        }
    }
}
