import { expect } from 'chai';
import { agentTitle } from './agent-session-titles';

describe('agentTitle', () => {
    it('takes the agent\'s title as one line, without control characters, cut at 120 characters', () => {
        expect(agentTitle('Fix the parser')).to.equal('Fix the parser');
        expect(agentTitle('  Fix\nthe\u0007 parser\t ')).to.equal('Fix the parser');
        const long = agentTitle('x'.repeat(200))!;
        expect([long.length, long.endsWith('…')]).to.deep.equal([120, true]);
    });

    it('has none for an empty or missing title', () => {
        for (const title of [undefined, null, '', ' \n ', 7]) {
            expect(agentTitle(title), JSON.stringify(title)).to.equal(undefined);
        }
    });
});
