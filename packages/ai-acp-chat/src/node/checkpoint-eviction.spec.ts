import { expect } from 'chai';
import { planCheckpointEviction } from './checkpoint-eviction';

describe('planCheckpointEviction', () => {
    const sizes = new Map([['a', 100], ['b', 100], ['c', 100], ['d', 100], ['e', 100]]);
    const turn = (...blobs: string[]) => ({ blobs, recordBytes: 1 });

    it('trims each chat to its turn count first, then the oldest turns of the least recently used chat, a shared blob freed with its last turn', () => {
        const plan = planCheckpointEviction({
            chats: [
                { usedAt: 200, turns: [turn('a', 'b'), turn('b', 'c')] },
                { usedAt: 100, turns: [turn('d'), turn('d', 'e'), turn('e')] }
            ],
            blobSizes: sizes, pinned: new Set(), turnsPerChat: 2, maxBytes: 450
        });
        // The second chat is used least recently: its first turn goes for the count, its next for the size (d freed, e still kept).
        expect(plan.removed).to.deep.equal([{ byCount: 0, bySize: 0 }, { byCount: 1, bySize: 1 }]);
        expect(plan.keptBytes).to.equal(300 + 100 + 3);
        expect(plan.turnsRemoved).to.equal(2);
    });

    it('never removes the latest turn of the chat used last, and counts pinned blobs without freeing them', () => {
        const plan = planCheckpointEviction({
            chats: [{ usedAt: 1, turns: [turn('a'), turn('b')] }, { usedAt: 2, turns: [turn('c'), turn('d')] }],
            blobSizes: sizes, pinned: new Set(['e']), turnsPerChat: 10, maxBytes: 10
        });
        expect(plan.removed).to.deep.equal([{ byCount: 0, bySize: 2 }, { byCount: 0, bySize: 1 }]);
        expect(plan.keptBytes).to.equal(100 + 100 + 1);
    });
});
