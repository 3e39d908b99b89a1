/**
 * One run of a task a while after it was asked for: asks that come while it waits join that run, and
 * asks during the run schedule the next one. `done` settles once the run scheduled last ran (or was
 * called off by `dispose`).
 */
export class DelayedRun {
    protected timer?: ReturnType<typeof setTimeout>;
    protected scheduled?: { done: Promise<void>; settle: () => void };

    /** `run` reports its own errors: a rejection only ends the run. */
    constructor(protected readonly run: () => Promise<void>) { }

    /** A run in `delayMs`, unless one is waiting already. */
    schedule(delayMs: number): void {
        if (this.timer) {
            return;
        }
        let settle!: () => void;
        const scheduled = { done: new Promise<void>(resolve => settle = resolve), settle };
        this.scheduled = scheduled;
        this.timer = setTimeout(() => {
            this.timer = undefined;
            this.run().catch(() => undefined).finally(scheduled.settle);
        }, delayMs);
        this.timer.unref?.();
    }

    /** Resolves once the run scheduled last has run. */
    async done(): Promise<void> {
        await this.scheduled?.done;
    }

    /** Calls off the waiting run. */
    dispose(): void {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = undefined;
            this.scheduled?.settle();
        }
    }
}
