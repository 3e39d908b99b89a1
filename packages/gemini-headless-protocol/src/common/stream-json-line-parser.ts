import { StreamJsonEvent, StreamJsonEventSchema, isStreamJsonEventType, unknownFieldsOf } from './stream-json-events';
import { describeError, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

/** What one stdout line turned out to be. Only `event` is upstream protocol; the others are how we classify what is not. */
export type StreamJsonLine =
    /** A valid event. `unknownFields`: top-level fields its schema does not know (omitted when none). */
    | { kind: 'event'; event: StreamJsonEvent; unknownFields?: Record<string, unknown> }
    /** A JSON object whose `type` is not one we know: a newer CLI's event, kept whole. */
    | { kind: 'unknown-event'; type: string; raw: Record<string, unknown> }
    /** A known `type` with fields that do not match its schema; `problem` says which. */
    | { kind: 'invalid-event'; type: string; raw: Record<string, unknown>; problem: string }
    /** Not a JSON object at all (a stray log line on stdout, a truncated write). */
    | { kind: 'not-json'; text: string; problem: string };

/** Lines longer than this are not buffered whole: a runaway line must not take the backend's memory. */
export const MAX_LINE_LENGTH = 8 * 1024 * 1024;
const SHOWN_PREFIX = 4096;

/**
 * Turns stdout chunks into lines and lines into typed events. Chunks may split lines and UTF-8
 * characters anywhere; `end()` flushes a last line without a newline. Never throws on input.
 */
export class StreamJsonLineParser {
    protected readonly decoder = new TextDecoder('utf-8');
    protected pending = '';
    protected skippingOversized = false;

    push(chunk: Uint8Array | string): StreamJsonLine[] {
        const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
        return this.take(text, false);
    }

    end(): StreamJsonLine[] {
        return this.take(this.decoder.decode(), true);
    }

    protected take(text: string, final: boolean): StreamJsonLine[] {
        const lines: StreamJsonLine[] = [];
        let rest = this.pending + text;
        let newline: number;
        while ((newline = rest.indexOf('\n')) >= 0) {
            const line = rest.slice(0, newline);
            rest = rest.slice(newline + 1);
            if (this.skippingOversized) {
                this.skippingOversized = false;
                continue;
            }
            this.addLine(line, lines);
        }
        if (rest.length > MAX_LINE_LENGTH && !this.skippingOversized) {
            lines.push({ kind: 'not-json', text: rest.slice(0, SHOWN_PREFIX), problem: `line longer than ${MAX_LINE_LENGTH} characters, skipped` });
            this.skippingOversized = true;
        }
        this.pending = this.skippingOversized ? '' : rest;
        if (final) {
            if (!this.skippingOversized) {
                this.addLine(this.pending, lines);
            }
            this.pending = '';
            this.skippingOversized = false;
        }
        return lines;
    }

    protected addLine(line: string, into: StreamJsonLine[]): void {
        const trimmed = line.replace(/\r$/, '');
        if (trimmed.trim()) {
            into.push(parseStreamJsonLine(trimmed));
        }
    }
}

/** Classifies one complete line (without its newline). */
export function parseStreamJsonLine(line: string): StreamJsonLine {
    let value: unknown;
    try {
        value = JSON.parse(line);
    } catch (error) {
        return { kind: 'not-json', text: line.slice(0, SHOWN_PREFIX), problem: describeError(error) };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return {
            kind: 'not-json',
            text: line.slice(0, SHOWN_PREFIX),
            problem: `a JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}, not an event object`
        };
    }
    const raw = value as Record<string, unknown>;
    if (!isStreamJsonEventType(raw.type)) {
        return typeof raw.type === 'string'
            ? { kind: 'unknown-event', type: raw.type, raw }
            : { kind: 'invalid-event', type: String(raw.type), raw, problem: 'the object has no string "type"' };
    }
    const parsed = StreamJsonEventSchema.safeParse(raw);
    if (!parsed.success) {
        const problem = formatZodIssues(parsed.error, '(event)');
        return { kind: 'invalid-event', type: raw.type, raw, problem };
    }
    const unknownFields = unknownFieldsOf(parsed.data);
    return Object.keys(unknownFields).length ? { kind: 'event', event: parsed.data, unknownFields } : { kind: 'event', event: parsed.data };
}
