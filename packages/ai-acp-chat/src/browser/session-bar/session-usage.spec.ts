import { expect } from 'chai';
import type * as acp from '@agentclientprotocol/sdk';
import { describeTurnUsage, describeUsage, formatTokens, usageOf } from './session-usage';

describe('Session usage (the session bar and the end of each turn)', () => {
    it('says tokens as people read them and the cost in the agent\'s currency', () => {
        expect([950, 1000, 12_345, 200_000, 1_250_000].map(formatTokens)).to.deep.equal(['950', '1k', '12.3k', '200k', '1.3M']);
        expect(describeUsage({ used: 12_345, size: 200_000 })).to.equal('Context: 12.3k of 200k tokens (6%)');
        expect(describeUsage({ used: 50_000, size: 200_000, cost: { amount: 1.5, currency: 'EUR' } })).to.equal('Context: 50k of 200k tokens (25%) · €1.50');
        expect(describeUsage({ used: 0, size: 0 })).to.equal('Context: 0 of 0 tokens');
    });

    it('takes an update\'s numbers only when they are counts, and a cost only with a currency code', () => {
        const update = (fields: Record<string, unknown>) => ({ sessionUpdate: 'usage_update', ...fields }) as unknown as acp.UsageUpdate;
        expect(usageOf(update({ used: '12', size: 100 }))).to.equal(undefined);
        expect(usageOf(update({ used: -1, size: 100 }))).to.equal(undefined);
        expect(usageOf(update({ used: 1, size: Infinity }))).to.equal(undefined);
        expect(usageOf(update({ used: 1, size: 100, cost: { amount: 1, currency: '<b>' } }))).to.deep.equal({ used: 1, size: 100 });
        expect(usageOf(update({ used: 1, size: 100, cost: { amount: 0.5, currency: 'USD', extra: true } })))
            .to.deep.equal({ used: 1, size: 100, cost: { amount: 0.5, currency: 'USD' } });
    });

    it('says what a turn added, and nothing when the agent reported nothing during it', () => {
        const before = { used: 10_000, size: 200_000, cost: { amount: 0.02, currency: 'USD' } };
        expect(describeTurnUsage(before, undefined)).to.equal(undefined);
        expect(describeTurnUsage(undefined, { used: 900, size: 200_000 })).to.equal('Context after this turn: 900 of 200k tokens');
        expect(describeTurnUsage(before, { used: 11_500, size: 200_000, cost: { amount: 0.05, currency: 'USD' } }))
            .to.equal('Context after this turn: 11.5k of 200k tokens (+1.5k) · $0.05 (+$0.03)');
        // a compacted context shrinks
        expect(describeTurnUsage(before, { used: 4000, size: 200_000 })).to.equal('Context after this turn: 4k of 200k tokens (−6k)');
    });
});
