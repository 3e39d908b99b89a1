import { ChatResponseContent, MarkdownChatResponseContentImpl } from '@theia/ai-chat';
import { MarkdownStringImpl } from '@theia/core/lib/common/markdown-rendering';
import { agentMarkdownHtml } from './agent-markdown-html';

/**
 * Markdown that an agent wrote or shaped, in a chat response: rendered by {@link agentMarkdownHtml}
 * (links only to `http(s)` and to files inside the chat's workspace folders). Streamed chunks are
 * joined before they are rendered, so a link split across chunks is judged whole; what the chat
 * keeps (and reloads in a reopened chat) is the rendered fragment, the agent's text is what a copy
 * of the response gives.
 */
export class AgentMarkdownContent extends MarkdownChatResponseContentImpl {
    protected markdown: string;

    constructor(markdown: string, protected roots: readonly string[]) {
        super('');
        this.markdown = markdown;
        this.render();
    }

    protected render(): void {
        this._content = new MarkdownStringImpl(agentMarkdownHtml(this.markdown, this.roots));
    }

    /** Joins the next chunk of agent markdown; any other markdown starts a part of its own. */
    override merge(next: ChatResponseContent): boolean {
        if (!(next instanceof AgentMarkdownContent)) {
            return false;
        }
        this.markdown += next.markdown;
        this.roots = [...new Set([...this.roots, ...next.roots])];
        this.render();
        return true;
    }

    override asString(): string {
        return this.markdown;
    }
}
