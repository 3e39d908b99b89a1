import type { ChangeSetElement } from '@theia/ai-chat';
import type { SerializableChangeSetElement } from '@theia/ai-chat/lib/common/chat-model-serialization';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { Emitter } from '@theia/core/lib/common/event';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import type { AcpTurnFileChange } from '../../common/acp-chat-protocol';

export const ACP_TURN_CHANGE_KIND = 'acp-turn-change';
/** What a change that could not be read says after its name. */
export const UNREADABLE_NOTE = (): string => nls.localize('theia-cli-companion/acp-chat/unreadableNote', 'could not be read; not restorable');

/** Which chat turn a change belongs to. */
export interface TurnRef {
    readonly chatSessionId: string;
    readonly turnId: string;
}

/** What the chat's change set does with an element: the turn checkpoints' actions. */
export interface TurnChangeActions {
    openChange(at: TurnRef, change: AcpTurnFileChange, agentName: string): Promise<void>;
    restore(at: TurnRef, files?: string[]): Promise<void>;
    reapply(at: TurnRef, file: string): Promise<void>;
}

/**
 * A file an agent's turn changed, as an element of Theia AI's change set: already written, so it is
 * "applied"; Revert puts the file back as it was before the turn, Apply writes the turn's content again.
 */
export class AcpTurnChangeElement implements ChangeSetElement {
    readonly uri: URI;
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange = this.onDidChangeEmitter.event;
    protected readonly onDisposeEmitter = new Emitter<void>();
    /** The chat no longer shows it (replaced, deleted, or the chat closed). */
    readonly onDispose = this.onDisposeEmitter.event;

    constructor(readonly at: TurnRef, protected _change: AcpTurnFileChange, readonly agentName: string, protected readonly actions: TurnChangeActions) {
        this.uri = FileUri.create(_change.path);
    }

    get change(): AcpTurnFileChange {
        return this._change;
    }

    /** The change as recorded now (restored or not): the chat shows its new state. */
    update(change: AcpTurnFileChange): void {
        if (change.restoredAt !== this._change.restoredAt) {
            this._change = change;
            this.onDidChangeEmitter.fire();
        }
    }

    dispose(): void {
        this.onDisposeEmitter.fire();
        this.onDisposeEmitter.dispose();
        this.onDidChangeEmitter.dispose();
    }

    get state(): 'applied' | 'pending' {
        return this.change.restoredAt === undefined ? 'applied' : 'pending';
    }

    get type(): 'add' | 'modify' | 'delete' {
        return this.change.kind === 'added' ? 'add' : this.change.kind === 'deleted' ? 'delete' : 'modify';
    }

    get additionalInfo(): string {
        return this.change.unreadable ? `${this.change.relativePath} (${UNREADABLE_NOTE()})` : this.change.relativePath;
    }

    openChange(): Promise<void> {
        return this.actions.openChange(this.at, this.change, this.agentName);
    }

    revert(): Promise<void> {
        return this.actions.restore(this.at, [this.change.path]);
    }

    apply(): Promise<void> {
        return this.actions.reapply(this.at, this.change.path);
    }

    toSerializable(): SerializableChangeSetElement {
        return {
            kind: ACP_TURN_CHANGE_KIND, uri: this.uri.toString(), state: this.state, type: this.type, additionalInfo: this.additionalInfo,
            data: { at: this.at, change: this.change, agentName: this.agentName }
        };
    }
}
