import { expect } from 'chai';
import { StoreGuard } from './store-guard';

describe('StoreGuard', () => {
    const later = () => {
        let resolve!: () => void;
        const promise = new Promise<void>(done => resolve = done);
        return { promise, resolve };
    };

    it('runs a collection only once the shared work in progress ended, and shared work asked for meanwhile after it', async () => {
        const guard = new StoreGuard();
        const events: string[] = [];
        const first = later();
        const snapshot = guard.shared(async () => {
            events.push('snapshot starts');
            await first.promise;
            events.push('snapshot ends');
        });
        const collection = guard.exclusive(async () => {
            events.push('collection');
        });
        const restore = guard.shared(async () => {
            events.push('restore');
        });
        await new Promise(resolve => setImmediate(resolve));
        expect(events).to.deep.equal(['snapshot starts']);
        first.resolve();
        await Promise.all([snapshot, collection, restore]);
        expect(events).to.deep.equal(['snapshot starts', 'snapshot ends', 'collection', 'restore']);
    });

    it('runs nested shared work at once even with a collection waiting, and refuses a collection inside shared work', async () => {
        const guard = new StoreGuard();
        const events: string[] = [];
        const asked = later();
        const outer = guard.shared(async () => {
            await asked.promise;
            await guard.shared(async () => { events.push('nested'); });
            await guard.exclusive(async () => undefined).then(() => events.push('no'), error => events.push(String(error.message)));
        });
        const collection = guard.exclusive(async () => { events.push('collection'); });
        asked.resolve();
        await Promise.all([outer, collection]);
        expect(events).to.deep.equal(['nested', 'a collection cannot run inside shared work of its own store', 'collection']);
    });
});
