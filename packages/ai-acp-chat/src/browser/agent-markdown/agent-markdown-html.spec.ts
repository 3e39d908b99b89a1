import { enableBrowserDom } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { MarkdownChatResponseContentImpl } from '@theia/ai-chat';
import { MarkdownStringImpl } from '@theia/core/lib/common/markdown-rendering';
import { agentMarkdownHtml } from './agent-markdown-html';
import { AgentMarkdownContent } from './agent-markdown-content';
import { theiaChatMarkdown } from './test/theia-chat-markdown';

disableDom();

const ROOTS = ['/work/project', '/work/second'];
const COMMAND = 'command:aiCliCompanion.acceptAllDiffs';

/** Every way markdown (as Theia's chat renders it: markdown-it with HTML) makes a link, each to a target that must not be one. */
const REFUSED: Record<string, { markdown: string; target: string; definitions?: string }> = {
    'inline link': { markdown: `[README.md](${COMMAND})`, target: COMMAND },
    'inline link with arguments': { markdown: '[run](command:task:run?%5B%22deploy%22%5D)', target: 'command:task:run?["deploy"]' },
    'reference link': { markdown: '[README.md][readme]', definitions: `[readme]: ${COMMAND}`, target: COMMAND },
    'collapsed reference': { markdown: '[readme][]', definitions: `[readme]: <${COMMAND}> "title"`, target: COMMAND },
    'shortcut reference': { markdown: 'see [readme].', definitions: `[readme]: ${COMMAND}`, target: COMMAND },
    'autolink': { markdown: `<${COMMAND}>`, target: COMMAND },
    'HTML anchor': { markdown: `<a href="${COMMAND}">README.md</a>`, target: COMMAND },
    'HTML block anchor': { markdown: `\n\n<div>\n<a href="${COMMAND}">README.md</a>\n</div>\n\n`, target: COMMAND },
    'SVG anchor': { markdown: `<svg><a xlink:href="${COMMAND}"><text>README.md</text></a></svg>`, target: COMMAND },
    'image': { markdown: `![logo](${COMMAND})`, target: COMMAND },
    'link around an image': { markdown: `[![logo](https://example.com/logo.png)](${COMMAND})`, target: COMMAND },
    'vscode:': { markdown: '[open](vscode://vscode.git/clone?url=x)', target: 'vscode://vscode.git/clone?url=x' },
    'data:': { markdown: '[page](data:text/html;base64,PHNjcmlwdD4=)', target: 'data:text/html;base64,PHNjcmlwdD4=' },
    'javascript:': { markdown: '[go](javascript:alert(1))', target: 'javascript:alert(1)' },
    'an unknown scheme, upper case': { markdown: '[x](WHATEVER:thing)', target: 'WHATEVER:thing' },
    'relative path': { markdown: '[a](src/a.ts)', target: 'src/a.ts' },
    'protocol-relative': { markdown: '[a](//evil.example/x)', target: '//evil.example/x' },
    'fragment only': { markdown: '[a](#top)', target: '#top' },
    'file outside the workspace': { markdown: '[key](file:///home/u/.ssh/id_rsa)', target: 'file:///home/u/.ssh/id_rsa' },
    'file going up out of the workspace': { markdown: '[key](file:///work/project/../../home/u/.ssh/id_rsa)', target: 'file:///work/project/../../home/u/.ssh/id_rsa' },
    'file going up with encoded slashes': { markdown: '[key](file:///work/project/..%2F..%2Fetc/passwd)', target: 'file:///work/project/..%2F..%2Fetc/passwd' },
    'file with a host': { markdown: '[a](file://server/work/project/a.ts)', target: 'file://server/work/project/a.ts' },
    'a sibling of a root sharing its prefix': { markdown: '[a](file:///work/project-secrets/a)', target: 'file:///work/project-secrets/a' }
};

describe('Agent markdown in the chat: links only to the web and into the workspace', () => {
    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    it('Theia\'s chat renderer (unchanged) opens command: links of raw markdown, also when the MarkdownString is not trusted', async () => {
        const rendered = await theiaChatMarkdown(new MarkdownStringImpl(`[README.md](${COMMAND}) <a href="${COMMAND}">x</a>`, { isTrusted: false }));
        expect(rendered.links).to.deep.equal([COMMAND, COMMAND]);
        expect(rendered.opened).to.include(COMMAND);
    });

    for (const [name, { markdown, target, definitions }] of Object.entries(REFUSED)) {
        it(`shows a ${name} as text with its target as code: no link, a click opens nothing`, async () => {
            const fragment = agentMarkdownHtml(`Before ${markdown} after${definitions ? `\n\n${definitions}\n` : ''}`, ROOTS);
            // As the chat shows it, and as Theia's own renderer shows a reopened chat's.
            for (const rendered of [await theiaChatMarkdown(fragment, ROOTS), await theiaChatMarkdown(fragment)]) {
                expect(rendered.links.filter(link => !link.startsWith('https:')), rendered.text).to.deep.equal([]);
                expect(rendered.opened.filter(uri => !uri.startsWith('https:'))).to.deep.equal([]);
                if (name.includes('HTML') || name.includes('SVG')) {
                    expect(rendered.text, 'raw HTML shown as it was written').to.contain(`href="${target}"`);
                } else {
                    expect(rendered.code.join(' '), 'the target stays visible').to.contain(target);
                }
                expect(rendered.text.trim()).to.match(/^Before/).and.to.match(/after$/);
            }
        });
    }

    it('keeps http(s) links and file links inside a workspace folder as links, canonical', async () => {
        const markdown = [
            '[docs](https://example.com/docs?a=1#b)', '<http://example.com/x>', '[ref][site]', '[upper](HTTPS://EXAMPLE.COM/Y)',
            '[a.ts](file:///work/project/src/a.ts#L3)', '[b](file:///work/second/b%20c.md)', '[root](file:///work/project)'
        ].join(' ') + '\n\n[site]: https://example.org/\n';
        const rendered = await theiaChatMarkdown(agentMarkdownHtml(markdown, ROOTS), ROOTS);
        const expected = ['https://example.com/docs?a=1#b', 'http://example.com/x', 'https://example.org/', 'https://example.com/Y',
            'file:///work/project/src/a.ts#L3', 'file:///work/second/b%20c.md', 'file:///work/project'];
        expect(rendered.links).to.deep.equal(expected);
        expect(rendered.opened).to.deep.equal(expected.map(link => link.replace('%20', ' ')));
        expect(rendered.code).to.deep.equal([]);
    });

    it('has no file links when the chat has no workspace folder', async () => {
        const rendered = await theiaChatMarkdown(agentMarkdownHtml('[a.ts](file:///work/project/src/a.ts)', []));
        expect(rendered.links).to.deep.equal([]);
        expect(rendered.code).to.deep.equal(['file:///work/project/src/a.ts']);
    });

    it('renders markdown as Theia does otherwise: emphasis, lists, code, tables, emoji', async () => {
        const markdown = 'Hello **world** :smile:\n\n- one\n- two\n\n```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
        const rendered = await theiaChatMarkdown(agentMarkdownHtml(markdown, ROOTS), ROOTS);
        expect(rendered.text).to.contain('Hello world 😄').and.to.contain('one').and.to.contain('const a = 1;').and.to.match(/a\s*b\s*1\s*2/);
        expect(rendered.code).to.deep.equal(['const a = 1;\n']);
    });

    it('stays inert inside other markdown: link syntax in code, fences with blank lines, or the fragment after text on a line', async () => {
        const tricky = '`[x](command:y)` and\n\n```\n[z](command:y)\n\n\n<command:y>\n```\n\n\\[w](command:y)';
        const fragment = agentMarkdownHtml(tricky, ROOTS);
        expect(fragment).to.not.contain('\n');
        for (const markdown of [fragment, `Some text ${fragment}`, `*${fragment}*`, `> ${fragment}`, `- ${fragment}`, `[outer ${fragment}`]) {
            const rendered = await theiaChatMarkdown(markdown);
            expect(rendered.links, markdown).to.deep.equal([]);
            expect(rendered.opened).to.deep.equal([]);
            expect(rendered.text).to.contain('[x](command:y)').and.to.contain('[z](command:y)');
        }
    });

    it('caps the target shown for a long refused link', async () => {
        const rendered = await theiaChatMarkdown(agentMarkdownHtml(`[big](data:text/plain,${'a'.repeat(5000)})`, ROOTS));
        expect(rendered.code[0]).to.have.length(301).and.to.match(/^data:text\/plain,a+…$/);
    });

    it('judges a link split across streamed chunks whole, and keeps the rendered text when the chat is saved', async () => {
        const content = new AgentMarkdownContent('[READ', ROOTS);
        for (const chunk of ['ME.md](comm', 'and:aiCliCompanion.acceptAllDiffs) and [docs](https://exa', 'mple.com/)']) {
            expect(content.merge(new AgentMarkdownContent(chunk, ROOTS))).to.equal(true);
        }
        expect(content.merge(new MarkdownChatResponseContentImpl('[x](command:y)')), 'other markdown is a part of its own').to.equal(false);
        const rendered = await theiaChatMarkdown(content.content, ROOTS);
        expect(rendered.links).to.deep.equal(['https://example.com/']);
        expect(rendered.code).to.deep.equal([COMMAND]);
        expect(content.asString(), 'a copy of the response is the agent\'s text').to.equal(`[README.md](${COMMAND}) and [docs](https://example.com/)`);
        const saved = content.toSerializable?.();
        const reloaded = new MarkdownChatResponseContentImpl((saved?.data as { content: string }).content);
        expect((await theiaChatMarkdown(reloaded.content)).links).to.deep.equal(['https://example.com/']);
    });

    it('shows a part only made to look like agent markdown sanitized, its images as links (nothing fetched), its links judged again', async () => {
        const forged = '<div class="acp-agent-markdown"><p><a href="command:x">run</a> <img src="https://tracker.example/p.png" alt="pixel">'
            + ' <a href="file:///etc/passwd">key</a> <a href="file:///work/project/a.ts">a.ts</a> <a href="https://example.com/">ok</a>'
            + '<script>window.ran = 1</script><svg><a xlink:href="command:y"><text>svg</text></a></svg></p></div>';
        const rendered = await theiaChatMarkdown(forged, ROOTS);
        expect(rendered.links).to.deep.equal(['https://tracker.example/p.png', 'file:///work/project/a.ts', 'https://example.com/']);
        expect(rendered.opened).to.deep.equal(rendered.links);
        expect(rendered.code, 'a target DOMPurify keeps is shown; command: it drops').to.deep.equal(['file:///etc/passwd']);
        expect(rendered.text).to.contain('run pixel key file:///etc/passwd a.ts ok');
        expect((window as { ran?: number }).ran).to.equal(undefined);
        expect((await theiaChatMarkdown(forged, [])).links, 'a file link outside the window\'s folders now').to.deep.equal(['https://tracker.example/p.png', 'https://example.com/']);
    });

    it('leaves other markdown to Theia\'s renderer', async () => {
        let error: unknown;
        await theiaChatMarkdown('**plain** [x](https://example.com/)', ROOTS).catch(caught => { error = caught; });
        expect(String(error)).to.contain('not a part for the agent-markdown renderer');
    });
});
