import * as React from '@theia/core/shared/react';
import { ReactRenderer } from '@theia/core/lib/browser/widgets/react-renderer';
import type { OpenerService } from '@theia/core/lib/browser/opener-service';
import URI from '@theia/core/lib/common/uri';
import type { MarkdownString } from '@theia/core/lib/common/markdown-rendering';
import { MarkdownChatResponseContentImpl } from '@theia/ai-chat';
import type { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { enableReactActEnvironment } from '@theia/core/lib/browser/test/jsdom';
import { MarkdownRender } from '@theia/ai-chat-ui/lib/browser/chat-response-renderer/markdown-part-renderer';
import { AgentMarkdownPartRenderer } from '../agent-markdown-part-renderer';

/** What Theia's chat made of some markdown, and what clicking it would open. */
export interface TheiaChatMarkdown {
    readonly text: string;
    /** The `href` (or `xlink:href`) of every link element. */
    readonly links: string[];
    /** What the chat asked its OpenerService to open when every element of the output was clicked once. */
    readonly opened: string[];
    /** The text of every `<code>` element. */
    readonly code: string[];
}

/**
 * Renders a markdown part as Theia's chat does, then clicks every element of the result: with Theia's
 * own `MarkdownRender` (markdown-it with HTML, DOMPurify, the click handler that opens links through the
 * OpenerService), or, given the window's workspace folders, with the part renderer the ACP chat adds
 * for agent markdown. Needs the browser DOM (see `enableBrowserDom`).
 */
export async function theiaChatMarkdown(markdown: string | MarkdownString, agentRendererRoots?: readonly string[]): Promise<TheiaChatMarkdown> {
    const opened: string[] = [];
    const openerService = {
        getOpener: async (uri: URI) => {
            opened.push(uri.toString(true));
            return { id: 'recording', canHandle: () => 1, open: async () => undefined };
        },
        getOpeners: async () => []
    } as unknown as OpenerService;
    const disableAct = enableReactActEnvironment();
    const host = document.createElement('div');
    document.body.appendChild(host);
    let part: React.ReactNode = React.createElement(MarkdownRender, { text: markdown, openerService });
    if (agentRendererRoots) {
        const agentRenderer = Object.assign(new AgentMarkdownPartRenderer(), {
            openerService, workspace: { tryGetRoots: () => agentRendererRoots.map(root => ({ resource: new URI(`file://${root}`) })) } as unknown as WorkspaceService
        });
        const content = new MarkdownChatResponseContentImpl(typeof markdown === 'string' ? markdown : markdown.value);
        if (agentRenderer.canHandle(content) <= 10) {
            throw new Error('not a part for the agent-markdown renderer');
        }
        part = agentRenderer.render(content);
    }
    const renderer = new class extends ReactRenderer {
        protected override doRender(): React.ReactNode {
            return part;
        }
    }(host);
    try {
        await React.act(async () => renderer.render());
        const links = [...host.querySelectorAll('a')].map(link => link.getAttribute('href') ?? link.getAttribute('xlink:href') ?? '');
        const code = [...host.querySelectorAll('code')].map(element => element.textContent ?? '');
        for (const element of [...host.querySelectorAll('*')]) {
            element.dispatchEvent(new window.MouseEvent('click', { bubbles: true, cancelable: true }));
        }
        return { text: host.textContent ?? '', links, opened, code };
    } finally {
        await React.act(async () => renderer.dispose());
        host.remove();
        disableAct();
    }
}
