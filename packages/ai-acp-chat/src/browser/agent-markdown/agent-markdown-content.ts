import { ChatResponseContent, MarkdownChatResponseContentImpl } from '@theia/ai-chat';
import { MarkdownString, MarkdownStringImpl } from '@theia/core/lib/common/markdown-rendering';
import { agentMarkdownHtml } from './agent-markdown-html';

/**
 * Markdown that an agent wrote or shaped, in a chat response: rendered by {@link agentMarkdownHtml}
 * (links only to `http(s)` and to files inside the chat's workspace folders). Streamed chunks are
 * joined before they are rendered, so a link split across chunks is judged whole; the rendering is
 * done when the chat reads the part (once per repaint, however many chunks came meanwhile). What the
 * chat keeps (and reloads in a reopened chat) is the rendered fragment; a copy of the response gives
 * the agent's text.
 */
export class AgentMarkdownContent extends MarkdownChatResponseContentImpl {
    protected markdown: string;
    protected stale = true;

    constructor(markdown: string, protected roots: readonly string[]) {
        super('');
        this.markdown = markdown;
    }

    override get content(): MarkdownString {
        if (this.stale) {
            this._content = new MarkdownStringImpl(agentMarkdownHtml(this.markdown, this.roots));
            this.stale = false;
        }
        return this._content;
    }

    /** Joins the next chunk of agent markdown; any other markdown starts a part of its own. */
    override merge(next: ChatResponseContent): boolean {
        if (!(next instanceof AgentMarkdownContent)) {
            return false;
        }
        this.markdown += next.markdown;
        this.roots = [...new Set([...this.roots, ...next.roots])];
        this.stale = true;
        return true;
    }

    override asString(): string {
        return this.markdown;
    }

    override toSerializable(): ReturnType<MarkdownChatResponseContentImpl['toSerializable']> {
        return { kind: this.kind, data: { content: this.content.value } };
    }
}
