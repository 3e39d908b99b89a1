import { enableBrowserDom, DiffReviewTestbed, until } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import type * as acp from '@agentclientprotocol/sdk';
import * as React from '@theia/core/shared/react';
import {
    ChatAgentLocation, MarkdownChatResponseContent, MutableChatModel, MutableChatRequestModel, QuestionResponseContent, ToolCallChatResponseContent
} from '@theia/ai-chat';
import type { OpenerService } from '@theia/core/lib/browser/opener-service';
import { renderToolCallResult } from '@theia/ai-chat-ui/lib/browser/chat-response-renderer/toolcall-result';
import { formatArgsForTooltip } from '@theia/ai-chat-ui/lib/browser/chat-response-renderer/toolcall-utils';
import type { ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatTurn } from './acp-chat-turn';
import { theiaChatMarkdown, TheiaChatMarkdown } from './agent-markdown/test/theia-chat-markdown';

disableDom();

const ROOT = '/workspace';
const COMMAND = 'command:aiCliCompanion.acceptAllDiffs';

/**
 * What an agent says, plans, names and outputs reaches the chat as markdown Theia renders, and Theia's
 * chat opens any link of it through the OpenerService, `command:` included: a turn keeps only links to
 * the web and into the workspace folders.
 */
describe('ACP chat turn: the agent\'s links', () => {
    let bed: DiffReviewTestbed;
    let request: MutableChatRequestModel;
    let turn: AcpChatTurn;

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(() => {
        bed = new DiffReviewTestbed();
        const model = new MutableChatModel(ChatAgentLocation.Panel);
        request = model.addRequest({ request: { text: 'hello' }, parts: [], toolRequests: new Map(), variables: [] }, 'acp-test');
        turn = new AcpChatTurn(request, 'Test Agent', bed.service, () => undefined, {
            read: async () => undefined, replaceWritten: async () => false
        });
        turn.roots = [ROOT];
    });

    const say = (content: acp.ContentBlock) => turn.onUpdate({ sessionUpdate: 'agent_message_chunk', content });
    /** Every markdown part of the response as Theia's chat renders it, clicked all over. */
    const renderedMarkdown = async (): Promise<TheiaChatMarkdown[]> => {
        const parts = request.response.response.content.filter((content): content is MarkdownChatResponseContent => MarkdownChatResponseContent.is(content));
        // As the chat shows them, and as Theia's own renderer shows a reopened chat's.
        return [...await Promise.all(parts.map(part => theiaChatMarkdown(part.content, [ROOT]))), ...await Promise.all(parts.map(part => theiaChatMarkdown(part.content)))];
    };
    const links = (rendered: TheiaChatMarkdown[]) => rendered.flatMap(part => part.links);
    const opened = (rendered: TheiaChatMarkdown[]) => rendered.flatMap(part => part.opened);

    it('a command: link in a message is text, also when it arrives in pieces; an https link and a file link in the workspace stay links', async () => {
        for (const text of ['See [READ', `ME.md](${COMMAND.slice(0, 9)}`, `${COMMAND.slice(9)}), <${COMMAND}>, [docs](https://example.com/docs), `,
            `[a.ts](file://${ROOT}/src/a.ts) and [key](file:///home/u/.ssh/id_rsa).`]) {
            say({ type: 'text', text });
        }
        const rendered = await renderedMarkdown();
        expect(rendered, 'the chunks are one part').to.have.length(2);
        expect(links(rendered)).to.deep.equal(['https://example.com/docs', `file://${ROOT}/src/a.ts`, 'https://example.com/docs', `file://${ROOT}/src/a.ts`]);
        expect(opened(rendered)).to.deep.equal(links(rendered));
        expect(rendered[0].text).to.contain(`See README.md ${COMMAND}, ${COMMAND}, docs`).and.to.contain('key file:///home/u/.ssh/id_rsa.');
    });

    it('a resource link is a link only when its URI passes the same test, whatever its name', async () => {
        say({ type: 'resource_link', name: 'README.md', uri: COMMAND });
        say({ type: 'text', text: ' ' });
        say({ type: 'resource_link', name: `a](${COMMAND}) [b`, uri: `file://${ROOT}/a.ts` });
        say({ type: 'text', text: ' ' });
        say({ type: 'resource_link', name: 'passwd', uri: 'file:///etc/passwd' });
        say({ type: 'text', text: ' ' });
        say({ type: 'resource_link', name: 'odd', uri: `https://example.com/<x>\n)[y](${COMMAND}` });
        const rendered = await renderedMarkdown();
        const expected = [`file://${ROOT}/a.ts`, 'https://example.com/%3Cx%3E%0A)%5By%5D(command:aiCliCompanion.acceptAllDiffs'];
        expect(links(rendered)).to.deep.equal([...expected, ...expected]);
        expect(opened(rendered).filter(uri => uri.startsWith('command:'))).to.deep.equal([]);
        expect(rendered[0].code).to.deep.equal([COMMAND, 'file:///etc/passwd']);
        expect(rendered[0].text).to.contain(`a](${COMMAND}) [b`);
    });

    it('the turn\'s usage is said (as markdown, by Theia) only when the agent sends numbers', async () => {
        turn.onUpdate({ sessionUpdate: 'usage_update', used: `[README.md](${COMMAND})`, size: 100 } as unknown as acp.SessionUpdate);
        expect(turn.usageNote()).to.equal(undefined);
        turn.usageBefore = { used: 1000, size: 100000, cost: { amount: 0.01, currency: 'USD' } };
        turn.onUpdate({ sessionUpdate: 'usage_update', used: 1200, size: 100000, cost: { amount: 0.0125, currency: 'USD' } });
        const rendered = await theiaChatMarkdown(turn.usageNote()!.content.value);
        expect(rendered.links).to.deep.equal([]);
        expect(rendered.text.trim()).to.equal('Context after this turn: 1.2k of 100k tokens (+200) · $0.0125 (+$0.0025)');
    });

    it('a plan entry\'s command: link is text', async () => {
        turn.onUpdate({ sessionUpdate: 'plan', entries: [{ content: `Open [the notes](${COMMAND})`, priority: 'high', status: 'pending' }] });
        const rendered = await renderedMarkdown();
        expect(links(rendered)).to.deep.equal([]);
        expect(rendered[0].text).to.contain(`Open the notes ${COMMAND}`);
    });

    it('a permission question naming a tool with a command: link shows the title as it is, as text', async () => {
        const toolCall: ToolCallState = { toolCallId: 'call-1', title: `Run [tests](${COMMAND})`, kind: 'execute', status: 'pending', locations: [], content: [] };
        void turn.askPermission({
            sessionId: 's', toolCall: { toolCallId: 'call-1' }, options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }]
        } as acp.RequestPermissionRequest, toolCall);
        const question = request.response.response.content.find((content): content is QuestionResponseContent => content.kind === 'question')!;
        const rendered = await theiaChatMarkdown(question.question);
        expect(rendered.links).to.deep.equal([]);
        expect(rendered.opened).to.deep.equal([]);
        expect(rendered.text).to.contain(`Test Agent asks to run: Run [tests](${COMMAND})`);
        request.response.cancel();
    });

    it('a tool\'s output shaped as Theia tool content is shown as text, not rendered as markdown', async () => {
        const output = JSON.stringify({ content: [{ type: 'text', text: `[README.md](${COMMAND})` }] });
        turn.onUpdate({ sessionUpdate: 'tool_call', toolCallId: 'call-1', title: 'Read', status: 'completed' },
            { toolCallId: 'call-1', title: 'Read', kind: 'read', status: 'completed', locations: [], content: [{ type: 'content', content: { type: 'text', text: output } }] });
        await until(() => request.response.response.content.some(content => ToolCallChatResponseContent.is(content)));
        const tool = request.response.response.content.find((content): content is ToolCallChatResponseContent => ToolCallChatResponseContent.is(content))!;
        const shown = renderToolCallResult(tool.result, {} as OpenerService) as React.ReactElement<{ children?: unknown }>;
        expect(shown.type, 'a <pre>, as any tool output').to.equal('pre');
        expect(shown.props.children).to.equal(output);
    });

    it('a tool\'s input whose keys are links is shown as text where Theia shows the input as markdown (tooltip, confirmation)', async () => {
        const rawInput = { [`[README.md](${COMMAND})`]: 1, nested: [{ [`<${COMMAND}>`]: 'x', [`a\n\n[b](${COMMAND})`]: 2 }], file_path: '/w/a.ts' };
        turn.onUpdate({ sessionUpdate: 'tool_call', toolCallId: 'call-1', title: 'Run', status: 'pending' },
            { toolCallId: 'call-1', title: 'Run', kind: 'execute', status: 'pending', locations: [], content: [], rawInput });
        const tool = request.response.response.content.find((content): content is ToolCallChatResponseContent => ToolCallChatResponseContent.is(content))!;
        const rendered = await theiaChatMarkdown(formatArgsForTooltip(tool.arguments!));
        expect(rendered.links).to.deep.equal([]);
        expect(rendered.opened).to.deep.equal([]);
        expect(rendered.text).to.contain(`[README.md](${COMMAND}):`);
        expect(JSON.parse(tool.arguments!).file_path, 'a plain key stays as it is').to.equal('/w/a.ts');
    });
});
