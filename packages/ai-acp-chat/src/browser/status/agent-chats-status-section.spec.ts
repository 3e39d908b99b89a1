import { expect } from 'chai';
import { totalCosts } from './agent-chats-status-section';

describe('totalCosts', () => {
    it('adds up the chats\' costs per currency, ignoring chats without one', () => {
        expect(totalCosts([
            { used: 1, size: 10, cost: { amount: 0.01, currency: 'USD' } }, undefined, { used: 2, size: 10 },
            { used: 3, size: 10, cost: { amount: 0.02, currency: 'usd' } }, { used: 4, size: 10, cost: { amount: 1, currency: 'EUR' } }
        ])).to.deep.equal([{ amount: 0.03, currency: 'USD' }, { amount: 1, currency: 'EUR' }]);
        expect(totalCosts([undefined, { used: 1, size: 2 }])).to.deep.equal([]);
    });
});
