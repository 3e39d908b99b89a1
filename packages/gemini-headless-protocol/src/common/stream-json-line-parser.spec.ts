import { expect } from 'chai';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { STREAM_JSON_EVENT_TYPES } from './stream-json-events';
import { MAX_LINE_LENGTH, StreamJsonLine, StreamJsonLineParser, parseStreamJsonLine } from './stream-json-line-parser';
import { TaskTranscript, applyStreamJsonLine, assistantText, emptyTranscript, toolCallOf } from './task-transcript';

const FIXTURES = path.resolve(__dirname, '../../src/common/test/fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

function transcriptOf(lines: StreamJsonLine[]): TaskTranscript {
    const transcript = emptyTranscript();
    lines.forEach(line => applyStreamJsonLine(transcript, line));
    return transcript;
}

function parseAll(text: string): StreamJsonLine[] {
    const parser = new StreamJsonLineParser();
    return [...parser.push(text), ...parser.end()];
}

describe('stream-json line parser (recorded from the real gemini 0.61.0)', () => {

    it('reads a write_file run: init, prompt, tool call and result, answer, stats', () => {
        const lines = parseAll(fixture('write-file-yolo.jsonl'));
        expect(lines.map(line => line.kind)).to.deep.equal(Array(6).fill('event'));
        const transcript = transcriptOf(lines);
        expect(transcript.model).to.equal('gemini-2.5-flash');
        expect(transcript.sessionId).to.match(/^[0-9a-f-]{36}$/);
        expect(transcript.entries.map(entry => entry.kind)).to.deep.equal(['user', 'tool', 'assistant']);
        const [call] = Object.values(transcript.toolCalls);
        expect(call).to.include({ name: 'write_file', status: 'success' });
        expect(call.parameters).to.deep.equal({ file_path: 'hello.txt', content: 'hi there\n' });
        expect(call.output).to.equal(undefined);
        expect(assistantText(transcript)).to.equal('Done. All good.');
        expect(transcript.result?.status).to.equal('success');
        expect(transcript.result?.stats).to.deep.include({ total_tokens: 36, input_tokens: 22, output_tokens: 14, cached: 0, input: 22, tool_calls: 1 });
        expect(transcript.result?.stats?.models['gemini-2.5-flash']).to.deep.equal({ total_tokens: 36, input_tokens: 22, output_tokens: 14, cached: 0, input: 22 });
        expect(transcript.counts).to.deep.equal({ events: 6, unknownEvents: 0, invalidEvents: 0, notJson: 0 });
    });

    it('keeps a tool error with both its output and its error', () => {
        const transcript = transcriptOf(parseAll(fixture('tool-error-file-not-found.jsonl')));
        const [call] = Object.values(transcript.toolCalls);
        expect(call).to.deep.include({ name: 'read_file', status: 'error', output: 'File not found.' });
        expect(call.error).to.deep.equal({ type: 'file_not_found', message: 'File not found: /home/user/ws/nope.txt' });
        expect(transcriptOf(parseAll(fixture('tool-not-registered-default.jsonl'))).toolCalls).to.satisfy(
            (calls: TaskTranscript['toolCalls']) => Object.values(calls).every(each => each.error?.type === 'tool_not_registered'));
    });

    it('reads an error result with its error, and one whose reason came as an error event before it', () => {
        const unreachable = transcriptOf(parseAll(fixture('api-unreachable.jsonl')));
        expect(unreachable.result).to.deep.include({ status: 'error', error: { type: 'unknown', message: '[API Error: exception TypeError: fetch failed sending request]' } });
        expect(unreachable.result?.stats?.duration_ms).to.equal(0);
        const empty = transcriptOf(parseAll(fixture('empty-response.jsonl')));
        expect(empty.result?.status).to.equal('error');
        expect(empty.result?.error).to.equal(undefined);
        const notices = empty.entries.filter(entry => entry.kind === 'notice');
        expect(notices).to.have.length(1);
        expect(notices[0]).to.deep.include({
            kind: 'notice', severity: 'error',
            message: 'The model returned an empty response with no text or thoughts. This may be a transient API issue; please try again.'
        });
    });

    it('joins assistant deltas and keeps every warning and error variant the CLI emits', () => {
        const transcript = transcriptOf(parseAll(fixture('source-variants.jsonl')));
        expect(transcript.entries.map(entry => entry.kind)).to.deep.equal(['user', 'assistant', 'notice', 'notice', 'notice']);
        expect(assistantText(transcript)).to.equal('Looking at src/.');
        expect(transcript.entries.filter(entry => entry.kind === 'notice').map(entry => entry.kind === 'notice' && entry.severity)).to.deep.equal(['warning', 'error', 'error']);
        expect(transcript.result?.error).to.deep.equal({ type: 'FatalCancellationError', message: 'Operation cancelled.' });
        expect(transcript.result?.stats?.models).to.deep.equal({});
    });

    it('gives the same events however the stream is cut into chunks, UTF-8 characters included', () => {
        const stream = fixture('write-file-yolo.jsonl').replace('Done. All good.', 'Fertig ✓ — 完成 🎉');
        const bytes = Buffer.from(stream, 'utf8');
        const whole = parseAll(stream);
        fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), cuts => {
            const parser = new StreamJsonLineParser();
            const lines: StreamJsonLine[] = [];
            let start = 0;
            for (const cut of [...cuts].sort((a, b) => a - b)) {
                lines.push(...parser.push(bytes.subarray(start, cut)));
                start = cut;
            }
            lines.push(...parser.push(bytes.subarray(start)), ...parser.end());
            expect(lines).to.deep.equal(whole);
        }), { numRuns: 300 });
        expect(assistantText(transcriptOf(whole))).to.equal('Fertig ✓ — 完成 🎉');
    });

    it('flushes a last line without a newline and ignores blank lines and CRLF endings', () => {
        const lines = parseAll('\n\r\n{"type":"init","timestamp":"t","session_id":"s","model":"m"}\r\n\n{"type":"error","timestamp":"t","severity":"warning","message":"w"}');
        expect(lines.map(line => line.kind === 'event' && line.event.type)).to.deep.equal(['init', 'error']);
    });

    it('keeps garbage lines, unknown events, invalid events and unknown fields raw, and goes on', () => {
        const lines = parseAll([
            'Loaded cached credentials.',
            '{"type":"init","timestamp":"t","session_id":"s","model":"m","sandbox":"none"}',
            '{"type":"thought","timestamp":"t","subject":"Planning"}',
            '{"type":"tool_use","timestamp":"t","tool_name":"grep_search","tool_id":"g1"}',
            '{"type":"message","timestamp":"t","role":"system","content":"x"}',
            '[1,2]',
            '{"no":"type"}',
            '{"type":"message","timestamp":"t","role":"assistant","content":"still here","delta":true}',
            '{"type":"result","timestamp":"t","status":"success","stats":{"total_tokens":"many"}}'
        ].join('\n') + '\n');
        expect(lines.map(line => line.kind)).to.deep.equal([
            'not-json', 'event', 'unknown-event', 'invalid-event', 'invalid-event', 'not-json', 'invalid-event', 'event', 'invalid-event'
        ]);
        expect(lines[1]).to.deep.include({ unknownFields: { sandbox: 'none' } });
        expect(lines[2]).to.deep.equal({ kind: 'unknown-event', type: 'thought', raw: { type: 'thought', timestamp: 't', subject: 'Planning' } });
        expect(lines[3]).to.have.property('problem').that.contains('parameters');
        expect(lines[4]).to.have.property('problem').that.contains('role');
        expect(lines[5]).to.have.property('problem').that.contains('array');
        expect(lines[8]).to.have.property('problem').that.contains('stats.total_tokens');
        const transcript = transcriptOf(lines);
        expect(transcript.counts).to.deep.equal({ events: 2, unknownEvents: 1, invalidEvents: 4, notJson: 2 });
        expect(transcript.entries.filter(entry => entry.kind === 'raw')).to.have.length(7);
        expect(transcript.entries).to.deep.include({ kind: 'extra-fields', eventType: 'init', fields: { sandbox: 'none' } });
        expect(assistantText(transcript)).to.equal('still here');
        expect(transcript.result).to.equal(undefined);
    });

    it('lists unknown fields named like what every object inherits (toString, constructor)', () => {
        const [line] = parseAll('{"type":"init","timestamp":"t","session_id":"s","model":"m","toString":"x","constructor":{"a":1},"hasOwnProperty":2}');
        expect(line).to.deep.include({ kind: 'event', unknownFields: { toString: 'x', constructor: { a: 1 }, hasOwnProperty: 2 } });
    });

    it('skips a runaway line without buffering it and parses the next one', () => {
        const parser = new StreamJsonLineParser();
        const piece = 'x'.repeat(1024 * 1024);
        const lines: StreamJsonLine[] = [];
        for (let i = 0; i < 10; i++) {
            lines.push(...parser.push(piece));
        }
        lines.push(...parser.push('tail\n{"type":"error","timestamp":"t","severity":"warning","message":"after"}\n'), ...parser.end());
        expect(lines.map(line => line.kind)).to.deep.equal(['not-json', 'event']);
        expect(lines[0]).to.have.property('problem').that.contains(String(MAX_LINE_LENGTH));
        expect((lines[0] as { text: string }).text.length).to.be.at.most(4096);
    });

    it('never throws, whatever a line holds', () => {
        fc.assert(fc.property(fc.oneof(fc.string(), fc.json(),
            fc.record({ type: fc.constantFrom(...STREAM_JSON_EVENT_TYPES, 'other'), timestamp: fc.anything() }).map(value => JSON.stringify(value))), line => {
            const parsed = parseStreamJsonLine(line);
            applyStreamJsonLine(emptyTranscript(), parsed);
            expect(['event', 'unknown-event', 'invalid-event', 'not-json']).to.include(parsed.kind);
        }), { numRuns: 500 });
    });

    it('matches results to calls whose tool_use never came, and keeps the order of the timeline', () => {
        const transcript = transcriptOf(parseAll([
            '{"type":"tool_result","timestamp":"t1","tool_id":"orphan","status":"success","output":"ok"}',
            '{"type":"tool_use","timestamp":"t0","tool_name":"glob","tool_id":"orphan","parameters":{"pattern":"*.ts"}}'
        ].join('\n')));
        expect(transcript.entries).to.deep.equal([{ kind: 'tool', toolId: 'orphan' }]);
        expect(toolCallOf(transcript, 'orphan')).to.deep.include({ name: 'glob', status: 'success', output: 'ok', parameters: { pattern: '*.ts' } });
    });
});
