import { expect } from 'chai';
import { StreamJsonLineParser } from './stream-json-line-parser';
import { TaskTranscript, applyStreamJsonLine, emptyTranscript, toolCallOf } from './task-transcript';

/** Tool ids an agent may choose that name what every plain object inherits. */
const INHERITED_NAMES = ['__proto__', 'constructor', 'toString'];

const toolUse = (id: string) => JSON.stringify({ type: 'tool_use', timestamp: 't0', tool_name: `tool ${id}`, tool_id: id, parameters: { polluted: id } });
const toolResult = (id: string) => JSON.stringify({ type: 'tool_result', timestamp: 't1', tool_id: id, status: 'success', output: `output of ${id}` });

function apply(transcript: TaskTranscript, lines: string[]): TaskTranscript {
    const parser = new StreamJsonLineParser();
    [...parser.push(lines.join('\n') + '\n'), ...parser.end()].forEach(line => applyStreamJsonLine(transcript, line));
    return transcript;
}

function expectEachCallRecorded(transcript: TaskTranscript): void {
    expect(transcript.entries).to.deep.equal(INHERITED_NAMES.map(toolId => ({ kind: 'tool', toolId })));
    expect(transcript.toolCalls.map(call => call.toolId)).to.deep.equal(INHERITED_NAMES);
    for (const id of INHERITED_NAMES) {
        expect(toolCallOf(transcript, id), id).to.deep.include({
            toolId: id, name: `tool ${id}`, status: 'success', output: `output of ${id}`, parameters: { polluted: id }
        });
    }
    expect(toolCallOf(transcript, 'hasOwnProperty')).to.equal(undefined);
}

describe('task transcript: tool ids chosen by the agent', () => {
    let prototypeBefore: PropertyDescriptorMap;

    beforeEach(() => prototypeBefore = Object.getOwnPropertyDescriptors(Object.prototype));

    afterEach(() => {
        expect(({} as { polluted?: unknown }).polluted, 'Object.prototype polluted').to.equal(undefined);
        expect(Object.getOwnPropertyDescriptors(Object.prototype)).to.deep.equal(prototypeBefore);
    });

    it('records calls whose ids are __proto__, constructor and toString, in order, each with its result', () => {
        const transcript = apply(emptyTranscript(), [...INHERITED_NAMES.map(toolUse), ...[...INHERITED_NAMES].reverse().map(toolResult)]);
        expectEachCallRecorded(transcript);
    });

    it('records results whose tool_use never came under those ids', () => {
        const transcript = apply(emptyTranscript(), INHERITED_NAMES.map(toolResult));
        expect(transcript.entries).to.deep.equal(INHERITED_NAMES.map(toolId => ({ kind: 'tool', toolId })));
        expect(transcript.toolCalls.map(call => [call.toolId, call.name, call.status, call.output])).to.deep.equal(
            INHERITED_NAMES.map(id => [id, undefined, 'success', `output of ${id}`]));
    });

    it('reads and goes on with the same transcript after a JSON round trip (the task store, the RPC)', () => {
        const stored: TaskTranscript = JSON.parse(JSON.stringify(apply(emptyTranscript(), INHERITED_NAMES.map(toolUse))));
        // The lines that come after the copy was taken: what the browser applies to the transcript it fetched.
        expectEachCallRecorded(apply(stored, INHERITED_NAMES.map(toolResult)));
        expectEachCallRecorded(JSON.parse(JSON.stringify(stored)));
    });
});
