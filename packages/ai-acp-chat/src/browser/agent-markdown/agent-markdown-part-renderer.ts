import * as React from '@theia/core/shared/react';
import DOMPurify = require('@theia/core/shared/dompurify');
import { inject, injectable } from '@theia/core/shared/inversify';
import { ChatResponseContent, MarkdownChatResponseContent } from '@theia/ai-chat';
import { ChatResponsePartRenderer } from '@theia/ai-chat-ui/lib/browser/chat-response-part-renderer';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import URI from '@theia/core/lib/common/uri';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { agentLinkTarget } from './agent-link-target';
import { isAgentMarkdownHtml } from './agent-markdown-html';

/**
 * Shows an agent's markdown part (a fragment of agentMarkdownHtml) in every Theia version, whether
 * its own markdown renderer passes HTML through or not; and treats the fragment as untrusted all the
 * same (a reopened chat's, or any markdown made to look like one): sanitized, images shown as links
 * (nothing is fetched for the agent), and every link judged again against the window's workspace
 * folders, when shown and when clicked.
 */
@injectable()
export class AgentMarkdownPartRenderer implements ChatResponsePartRenderer<MarkdownChatResponseContent> {

    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;

    canHandle(response: ChatResponseContent): number {
        // Above Theia's markdown renderer (10).
        return MarkdownChatResponseContent.is(response) && isAgentMarkdownHtml(response.content.value) ? 20 : -1;
    }

    render(response: MarkdownChatResponseContent): React.ReactNode {
        return React.createElement(AgentMarkdown, {
            html: response.content.value,
            roots: () => this.workspace.tryGetRoots().map(root => root.resource.path.fsPath()),
            open: target => open(this.openerService, new URI(target))
        });
    }
}

interface AgentMarkdownProps {
    readonly html: string;
    readonly roots: () => readonly string[];
    readonly open: (target: string) => Promise<unknown>;
}

function AgentMarkdown({ html, roots, open: openTarget }: AgentMarkdownProps): React.ReactElement {
    const ref = React.useRef<HTMLDivElement>(null);
    React.useEffect(() => {
        const host = ref.current;
        if (!host) {
            return undefined;
        }
        host.replaceChildren(safeFragment(html, roots()));
        const onClick = (event: MouseEvent) => {
            const link = event.target instanceof Element ? event.target.closest('a') : undefined;
            if (link && host.contains(link)) {
                event.preventDefault();
                const target = agentLinkTarget(link.getAttribute('href') ?? '', roots());
                if (target) {
                    openTarget(target).catch(() => undefined);
                }
            }
        };
        host.addEventListener('click', onClick);
        return () => host.removeEventListener('click', onClick);
    }, [html]);
    return React.createElement('div', { ref });
}

/** The fragment as DOM: sanitized, images as links to them, links that fail the test as their text and target. */
function safeFragment(html: string, roots: readonly string[]): DocumentFragment {
    const template = document.createElement('template');
    template.innerHTML = DOMPurify.sanitize(html, {
        ALLOWED_URI_REGEXP: /^(?:https?|file):/i,
        FORBID_TAGS: ['style', 'form', 'input', 'button', 'svg', 'math', 'iframe', 'frame', 'object', 'embed', 'video', 'audio', 'source']
    });
    for (const image of [...template.content.querySelectorAll('img')]) {
        const link = document.createElement('a');
        link.setAttribute('href', image.getAttribute('src') ?? '');
        link.textContent = image.getAttribute('alt') || image.getAttribute('src') || '';
        image.replaceWith(link);
    }
    for (const link of [...template.content.querySelectorAll('a')]) {
        const href = link.getAttribute('href') ?? '';
        const target = agentLinkTarget(href, roots);
        if (target) {
            link.setAttribute('href', target);
        } else {
            const code = document.createElement('code');
            code.textContent = href;
            link.replaceWith(...link.childNodes, ...href ? [' ', code] : []);
        }
    }
    return template.content;
}
