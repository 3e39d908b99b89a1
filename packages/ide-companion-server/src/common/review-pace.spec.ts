import { expect } from 'chai';
import { ACP_REVIEW_PACE_SETTING, reviewPaceOf, reviewPaceSetting } from './review-pace';

describe('review pace', () => {
    it('is set per CLI flavour and once for the chat\'s agents; an agent task has no pace', () => {
        expect(reviewPaceSetting({ kind: 'cli', flavour: 'gemini' })).to.equal('aiCliCompanion.gemini.reviewPace');
        expect(reviewPaceSetting({ kind: 'cli', flavour: 'claude' })).to.equal('aiCliCompanion.claude.reviewPace');
        expect(reviewPaceSetting({ kind: 'acp' })).to.equal(ACP_REVIEW_PACE_SETTING);
        expect(reviewPaceSetting({ kind: 'cli' }), 'a CLI session of no known flavour').to.equal(undefined);
        expect(reviewPaceSetting({ kind: 'task' })).to.equal(undefined);
    });

    it('reads anything that is not a pace as "open": a hand-edited file never turns review off', () => {
        expect(reviewPaceOf('queue')).to.equal('queue');
        expect(reviewPaceOf('accept')).to.equal('accept');
        for (const value of [undefined, null, 'ACCEPT', 'accept ', 1, true, ['accept'], { pace: 'accept' }]) {
            expect(reviewPaceOf(value), JSON.stringify(value)).to.equal('open');
        }
    });
});
