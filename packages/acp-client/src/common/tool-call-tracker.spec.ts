import { expect } from 'chai';
import { diffsOf, ToolCallTracker } from './tool-call-tracker';

describe('ToolCallTracker', () => {
    it('merges an announcement and its updates; a list in an update replaces the old one', () => {
        const tracker = new ToolCallTracker();
        const first = tracker.apply({ toolCallId: 't1', title: 'Reading a.ts', kind: 'read', status: 'pending', locations: [{ path: '/w/a.ts' }] });
        expect(first.isNew).to.equal(true);
        const second = tracker.apply({ toolCallId: 't1', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: 'half' } }] });
        expect(second.isNew).to.equal(false);
        expect(second.state).to.deep.include({ title: 'Reading a.ts', kind: 'read', status: 'in_progress' });
        expect(second.state.locations).to.deep.equal([{ path: '/w/a.ts' }]);
        const third = tracker.apply({ toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'all' } }], rawOutput: { ok: true } });
        expect(third.state.content).to.deep.equal([{ type: 'content', content: { type: 'text', text: 'all' } }]);
        expect(third.state.rawOutput).to.deep.equal({ ok: true });
    });

    it('creates the entry from whatever message names a call first (an update or a permission request)', () => {
        const tracker = new ToolCallTracker();
        const fromUpdate = tracker.apply({ toolCallId: 'late', status: 'in_progress' });
        expect(fromUpdate.isNew).to.equal(true);
        expect(fromUpdate.state).to.deep.include({ title: 'late', kind: 'other', status: 'in_progress' });
        const permission = tracker.apply({
            toolCallId: 'w1', title: 'Writing new.txt', kind: 'edit',
            content: [{ type: 'diff', path: '/w/new.txt', oldText: null, newText: 'hello\n' }]
        });
        expect(permission.isNew).to.equal(true);
        expect(permission.state.status).to.equal('pending');
        expect(diffsOf(permission.state)).to.deep.equal([{ path: '/w/new.txt', oldText: null, newText: 'hello\n' }]);
        expect(tracker.get('late')?.status).to.equal('in_progress');
    });

    it('keeps the most recently updated calls only, up to its limit', () => {
        const tracker = new ToolCallTracker(2);
        tracker.apply({ toolCallId: 'a', title: 'A' });
        tracker.apply({ toolCallId: 'b', title: 'B' });
        tracker.apply({ toolCallId: 'a', status: 'completed' });
        tracker.apply({ toolCallId: 'c', title: 'C' });
        expect(tracker.get('b'), 'the least recently updated went').to.equal(undefined);
        expect(tracker.get('a')?.status).to.equal('completed');
        expect(tracker.get('c')?.title).to.equal('C');
    });

    it('remembers which subagent\'s tool call started a call, from the first message that says so; never the call itself', () => {
        const tracker = new ToolCallTracker();
        expect(tracker.apply({ toolCallId: 'task', title: 'Task' }).state.parentToolCallId).to.equal(undefined);
        tracker.apply({ toolCallId: 'child', title: 'Read', _meta: { claudeCode: { parentToolUseId: 'task' } } });
        const updated = tracker.apply({ toolCallId: 'child', status: 'completed', _meta: { claudeCode: { parentToolUseId: 'other' } } });
        expect(updated.state.parentToolCallId).to.equal('task');
        expect(tracker.apply({ toolCallId: 'qwen', _meta: { parentToolCallId: 'task' } }).state.parentToolCallId).to.equal('task');
        expect(tracker.apply({ toolCallId: 'self', _meta: { parentToolCallId: 'self' } }).state).to.not.have.property('parentToolCallId');
    });
});
