import { expect } from 'chai';
import type * as acp from '@agentclientprotocol/sdk';
import { boundText, boundToolCall, boundUpdate, OMITTED_MARKER, toolOutputText } from './tool-output-bounds';
import { ToolCallState } from './tool-call-tracker';

const LIMITS = { headLines: 3, tailLines: 2, maxChars: 1000 };
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('Tool output within bounds for the chat', () => {
    it('keeps a short output as it is', () => {
        expect(boundText('one\ntwo', LIMITS)).to.deep.equal({ text: 'one\ntwo', omitted: false });
        expect(boundText(numbered(5), LIMITS).omitted).to.equal(false);
    });

    it('keeps the first and last lines of a long output and says how much is left out', () => {
        const { text, omitted } = boundText(numbered(50000), LIMITS);
        expect(omitted).to.equal(true);
        const leftOut = numbered(50000).length - 'line 1\nline 2\nline 3'.length - 'line 49999\nline 50000'.length;
        const marker = `[… 49,995 ${OMITTED_MARKER} (${leftOut.toLocaleString('en')} characters) …]`;
        expect(text.split('\n')).to.deep.equal(['line 1', 'line 2', 'line 3', marker, 'line 49999', 'line 50000']);
    });

    it('caps a few enormous lines by characters too', () => {
        const { text, omitted } = boundText(`${'x'.repeat(100000)}\n${'y'.repeat(100000)}`, LIMITS);
        expect(omitted).to.equal(true);
        expect(text.length).to.be.lessThan(LIMITS.maxChars + 200);
        expect(text).to.match(/^x+\n\[… \d+ lines of output not shown/).and.to.match(/y+$/);
    });

    it('bounds a tool call\'s text content and raw output, leaving its diffs whole', () => {
        const diff: acp.ToolCallContent = { type: 'diff', path: '/w/a.txt', oldText: numbered(5000), newText: numbered(5001) };
        const state: ToolCallState = {
            toolCallId: 'c1', title: 'Run', kind: 'execute', status: 'completed', locations: [],
            content: [{ type: 'content', content: { type: 'text', text: numbered(50000) } }, diff],
            rawOutput: { stdout: numbered(50000) }
        };
        const bounded = boundToolCall(state, LIMITS);
        expect(bounded.omitted).to.equal(true);
        expect(toolOutputText(bounded.state)).to.contain(OMITTED_MARKER);
        expect(bounded.state.content[1]).to.equal(diff);
        expect(bounded.state.rawOutput).to.deep.equal({ omitted: `${JSON.stringify(state.rawOutput).length.toLocaleString('en')} characters of raw output not shown` });
        expect(toolOutputText(state), 'the full text stays with the caller').to.equal(numbered(50000));
        expect(boundToolCall({ ...state, content: [diff], rawOutput: 'ok' }, LIMITS).omitted).to.equal(false);
    });

    it('bounds the content a tool_call_update carries, and passes other updates as they are', () => {
        const update: acp.SessionUpdate = {
            sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: numbered(1000) } }]
        };
        const bounded = boundUpdate(update, LIMITS);
        expect(JSON.stringify(bounded).length).to.be.lessThan(400);
        expect(bounded).to.deep.include({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' });
        expect(bounded).to.not.have.property('title');
        const text: acp.SessionUpdate = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: numbered(1000) } };
        expect(boundUpdate(text, LIMITS)).to.equal(text);
    });
});
