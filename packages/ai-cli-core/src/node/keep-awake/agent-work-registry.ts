import { injectable } from '@theia/core/shared/inversify';
import { Disposable } from '@theia/core/lib/common/disposable';
import { Emitter, Event } from '@theia/core/lib/common/event';

interface Work {
    readonly label: string;
    readonly owner?: string;
}

/**
 * What agents are doing now in this backend, whichever window started it and whether or not a window
 * is open: the chat's turns and agent tasks register here while they run. The workspace is kept awake
 * while anything works, and only then. Work waiting for the user (a permission, a question) does not
 * count: the user is the one to act, and an idle workspace may sleep.
 */
@injectable()
export class AgentWorkRegistry {
    protected readonly work = new Map<number, Work>();
    /** How many waits for the user each owner has open. */
    protected readonly waiting = new Map<string, number>();
    protected next = 0;
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    /**
     * `label` works until the returned disposable is disposed (`a chat turn with Gemini`); `owner` (a chat's
     * id) names it for {@link waitForUser}.
     */
    begin(label: string, owner?: string): Disposable {
        const id = this.next++;
        this.work.set(id, { label, owner });
        this.onDidChangeEmitter.fire();
        return Disposable.create(() => {
            if (this.work.delete(id)) {
                this.onDidChangeEmitter.fire();
            }
        });
    }

    /** The work of `owner` waits for the user until the returned disposable is disposed. */
    waitForUser(owner: string): Disposable {
        this.waiting.set(owner, (this.waiting.get(owner) ?? 0) + 1);
        this.onDidChangeEmitter.fire();
        let done = false;
        return Disposable.create(() => {
            if (done) {
                return;
            }
            done = true;
            const left = this.waiting.get(owner)! - 1;
            if (left) {
                this.waiting.set(owner, left);
            } else {
                this.waiting.delete(owner);
            }
            this.onDidChangeEmitter.fire();
        });
    }

    /** What works now (not waiting for the user), oldest first; the same label once however often it runs. */
    current(): string[] {
        return [...new Set([...this.work.values()].filter(work => !work.owner || !this.waiting.has(work.owner)).map(work => work.label))];
    }
}
