import { injectable } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import type { ToolCallState } from '@theia-cli-companion/acp-client/lib/common';

/** The tool calls of the window's chat agents as they start and change: what they are at (`locations`), for the views that follow them. */
@injectable()
export class AcpToolCallEvents {
    protected readonly onToolCallEmitter = new Emitter<{ chatSessionId: string; toolCall: ToolCallState }>();
    readonly onToolCall: Event<{ chatSessionId: string; toolCall: ToolCallState }> = this.onToolCallEmitter.event;

    fire(chatSessionId: string, toolCall: ToolCallState): void {
        this.onToolCallEmitter.fire({ chatSessionId, toolCall });
    }
}
