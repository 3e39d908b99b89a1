import * as React from '@theia/core/shared/react';
import { nls } from '@theia/core/lib/common/nls';
import type { QueuedMessage } from './acp-message-queue';

export interface AcpQueuedMessagesProps {
    readonly messages: readonly QueuedMessage[];
    /** The user stopped a turn: each message waits for its "Send now". */
    readonly paused: boolean;
    /** A turn runs or a message is on its way: nothing can be sent now. */
    readonly busy: boolean;
    readonly onEdit: (id: number) => void;
    readonly onRemove: (id: number) => void;
    readonly onSendNow: (id: number) => void;
}

/** The messages waiting for the running turn to end, above the chat input, each with edit, remove and (when idle) send. */
export function AcpQueuedMessages({ messages, paused, busy, onEdit, onRemove, onSendNow }: AcpQueuedMessagesProps): React.ReactElement | null {
    if (!messages.length) {
        return null;
    }
    const heading = paused
        ? nls.localize('theia-cli-companion/acp-chat/queuePaused', 'Queued (the turn was stopped: send, edit or remove them)')
        : nls.localize('theia-cli-companion/acp-chat/queueWaiting', 'Queued: sent when the turn ends');
    return <div className='acp-queued-messages' aria-label={heading}>
        <div className='acp-queued-heading'>{heading}</div>
        {messages.map(message => <div key={message.id} className='acp-queued-message' data-queued-id={message.id}>
            <span className='acp-queued-text' title={message.request.text}>{message.request.text}</span>
            {paused && !busy && <QueueAction icon='send' label={nls.localize('theia-cli-companion/acp-chat/queueSend', 'Send now')} onClick={() => onSendNow(message.id)} />}
            <QueueAction icon='edit' label={nls.localize('theia-cli-companion/acp-chat/queueEdit', 'Edit (back into the input)')} onClick={() => onEdit(message.id)} />
            <QueueAction icon='close' label={nls.localize('theia-cli-companion/acp-chat/queueRemove', 'Remove')} onClick={() => onRemove(message.id)} />
        </div>)}
    </div>;
}

function QueueAction({ icon, label, onClick }: { icon: string; label: string; onClick: () => void }): React.ReactElement {
    return <button type='button' className={`theia-button secondary acp-queued-action codicon codicon-${icon}`} title={label} aria-label={label} onClick={onClick} />;
}
