import { AsyncLocalStorage } from 'async_hooks';

/**
 * Keeps a store's collection apart from its use: what writes into the store or reads what a collection
 * may remove runs `shared` (side by side, re-entrantly), a collection runs `exclusive` (alone, once the
 * shared work in progress ended; shared work asked for meanwhile waits for it).
 */
export class StoreGuard {

    protected active = 0;
    protected collecting?: Promise<void>;
    protected drained: (() => void)[] = [];
    /** Set inside shared work: nested shared work runs at once (waiting would deadlock against a pending collection). */
    protected readonly inside = new AsyncLocalStorage<StoreGuard>();

    async shared<T>(work: () => Promise<T>): Promise<T> {
        if (this.inside.getStore() === this) {
            return work();
        }
        while (this.collecting) {
            await this.collecting;
        }
        this.active++;
        try {
            return await this.inside.run(this, work);
        } finally {
            this.active--;
            if (!this.active) {
                this.drained.splice(0).forEach(resolve => resolve());
            }
        }
    }

    async exclusive<T>(work: () => Promise<T>): Promise<T> {
        if (this.inside.getStore() === this) {
            throw new Error('a collection cannot run inside shared work of its own store');
        }
        while (this.collecting) {
            await this.collecting;
        }
        let release!: () => void;
        this.collecting = new Promise(resolve => release = resolve);
        try {
            while (this.active) {
                await new Promise<void>(resolve => this.drained.push(resolve));
            }
            return await work();
        } finally {
            this.collecting = undefined;
            release();
        }
    }
}
