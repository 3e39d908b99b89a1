import type * as acp from '@agentclientprotocol/sdk';

/** Something the user attached to a chat message, before it is fitted to what the agent accepts. */
export type PromptAttachment =
    /** A file, or part of one (`range`, 1-based lines): its URI and its text as the IDE has it. */
    | { readonly kind: 'file'; readonly uri: string; readonly label: string; readonly text: string; readonly range?: { readonly start: number; readonly end: number } }
    | { readonly kind: 'image'; readonly label: string; readonly data: string; readonly mimeType: string }
    /** Any other context (a task context, a change set): text with a name. */
    | { readonly kind: 'text'; readonly label: string; readonly text: string };

/** How each attachment went to the agent: the chat tells the user. */
export interface AttachmentOutcome {
    readonly label: string;
    readonly sentAs: 'embedded' | 'link' | 'image' | 'text' | 'not-sent';
    /** Why it was not sent. */
    readonly reason?: string;
}

export interface PromptBlocks {
    readonly blocks: acp.ContentBlock[];
    readonly outcomes: AttachmentOutcome[];
}

/** The URI an agent is given for a file or its lines (`#L3-5`, the form editors and agents link lines with). */
export function attachmentUri(attachment: Extract<PromptAttachment, { kind: 'file' }>): string {
    const { range } = attachment;
    return range ? `${attachment.uri}#L${range.start}${range.end !== range.start ? `-${range.end}` : ''}` : attachment.uri;
}

/**
 * The ACP prompt for a message and its attachments, per the agent's `promptCapabilities`: files as
 * embedded resources where the agent takes them, as resource links otherwise (every agent must take
 * those); images only where it takes images, else not sent and said so; nothing dropped unsaid.
 */
export function promptBlocks(text: string, attachments: readonly PromptAttachment[], capabilities: acp.PromptCapabilities | null | undefined, agentName: string): PromptBlocks {
    const blocks: acp.ContentBlock[] = [];
    const outcomes: AttachmentOutcome[] = [];
    if (text) {
        blocks.push({ type: 'text', text });
    }
    for (const attachment of attachments) {
        switch (attachment.kind) {
            case 'file': {
                const uri = attachmentUri(attachment);
                if (capabilities?.embeddedContext) {
                    blocks.push({ type: 'resource', resource: { uri, text: attachment.text, mimeType: 'text/plain' } });
                    outcomes.push({ label: attachment.label, sentAs: 'embedded' });
                } else {
                    // A link to the whole file loses the range: say which lines in words, next to it.
                    blocks.push({ type: 'resource_link', uri, name: attachment.label });
                    if (attachment.range) {
                        blocks.push({ type: 'text', text: `(${attachment.label}: lines ${attachment.range.start}-${attachment.range.end})` });
                    }
                    outcomes.push({ label: attachment.label, sentAs: 'link' });
                }
                break;
            }
            case 'image':
                if (capabilities?.image) {
                    blocks.push({ type: 'image', data: attachment.data, mimeType: attachment.mimeType });
                    outcomes.push({ label: attachment.label, sentAs: 'image' });
                } else {
                    outcomes.push({ label: attachment.label, sentAs: 'not-sent', reason: `${agentName} does not accept images` });
                }
                break;
            case 'text':
                blocks.push({ type: 'text', text: `${attachment.label}:\n${attachment.text}` });
                outcomes.push({ label: attachment.label, sentAs: 'text' });
                break;
        }
    }
    return { blocks, outcomes };
}
