import { expect } from 'chai';
import { subagentParentOf } from './subagent-parent';

describe('subagentParentOf', () => {
    it('reads Claude Code\'s parentToolUseId and Qwen Code\'s parentToolCallId', () => {
        expect(subagentParentOf({ _meta: { claudeCode: { parentToolUseId: 'toolu_1', toolName: 'Read' } } })).to.equal('toolu_1');
        expect(subagentParentOf({ _meta: { parentToolCallId: 'task-7', subagentType: 'general' } })).to.equal('task-7');
    });

    it('is undefined for the main agent\'s own work', () => {
        expect(subagentParentOf({})).to.equal(undefined);
        expect(subagentParentOf({ _meta: null })).to.equal(undefined);
        expect(subagentParentOf({ _meta: { claudeCode: { toolName: 'Read' } } })).to.equal(undefined);
    });

    it('takes only an own, non-empty string of bounded length', () => {
        const inherited = Object.create({ parentToolCallId: 'from-prototype' });
        expect(subagentParentOf({ _meta: inherited })).to.equal(undefined);
        expect(subagentParentOf({ _meta: { parentToolCallId: 7 } })).to.equal(undefined);
        expect(subagentParentOf({ _meta: { parentToolCallId: '' } })).to.equal(undefined);
        expect(subagentParentOf({ _meta: { parentToolCallId: ['a'] } })).to.equal(undefined);
        expect(subagentParentOf({ _meta: { claudeCode: [] } })).to.equal(undefined);
        expect(subagentParentOf({ _meta: { parentToolCallId: 'x'.repeat(257) } })).to.equal(undefined);
        expect(subagentParentOf({ _meta: { parentToolCallId: 'x'.repeat(256) } })).to.equal('x'.repeat(256));
    });
});
