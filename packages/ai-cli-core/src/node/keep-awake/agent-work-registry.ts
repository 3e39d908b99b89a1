import { injectable } from '@theia/core/shared/inversify';
import { Disposable } from '@theia/core/lib/common/disposable';
import { Emitter, Event } from '@theia/core/lib/common/event';

/**
 * What agents are doing now in this backend, whichever window started it and whether or not a window
 * is open: the chat's turns and agent tasks register here while they run. The workspace is kept awake
 * while anything is registered, and only then.
 */
@injectable()
export class AgentWorkRegistry {
    protected readonly work = new Map<number, string>();
    protected next = 0;
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    /** `label` works until the returned disposable is disposed (`a chat turn with Gemini`). */
    begin(label: string): Disposable {
        const id = this.next++;
        this.work.set(id, label);
        this.onDidChangeEmitter.fire();
        return Disposable.create(() => {
            if (this.work.delete(id)) {
                this.onDidChangeEmitter.fire();
            }
        });
    }

    /** What works now, oldest first; the same label once however often it runs. */
    current(): string[] {
        return [...new Set(this.work.values())];
    }
}
