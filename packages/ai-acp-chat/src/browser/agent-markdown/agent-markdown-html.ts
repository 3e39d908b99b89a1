import markdownit = require('@theia/core/shared/markdown-it');
import markdownitemoji = require('@theia/core/shared/markdown-it-emoji');
import { agentLinkTarget } from './agent-link-target';

type Token = markdownit.Token;

/** How much of a refused target the chat shows (a `data:` URI can be megabytes). */
const SHOWN_TARGET_CHARS = 300;

/** What every fragment of {@link agentMarkdownHtml} starts with. */
const FRAGMENT_START = '<div class="acp-agent-markdown">';

/** What the link rule reads from markdown-it's `env`: the roots `file:` links must be inside. */
interface LinkEnv {
    readonly roots: readonly string[];
}

/**
 * Markdown as Theia's chat renders it (markdown-it, CommonMark, emoji), but with raw HTML shown as
 * text and every link judged by {@link agentLinkTarget} after parsing: `validateLink` lets every target
 * through so that a refused one is a token the rule below turns into text, whatever the syntax
 * (inline, reference, autolink, image).
 */
function createRenderer(): markdownit {
    const md = markdownit({ html: false, linkify: false }).use(markdownitemoji.full);
    md.validateLink = () => true;
    md.core.ruler.push('acp_agent_links', state => {
        const { roots } = state.env as LinkEnv;
        for (const token of state.tokens) {
            if (token.type === 'inline' && token.children) {
                token.children = judgeLinks(token.children, roots, md, state.Token);
            }
        }
    });
    return md;
}

const renderer = createRenderer();

/**
 * An agent's markdown (message, plan, tool text, a question naming a tool) as a safe HTML fragment
 * for Theia's chat: only `http(s)` links and `file:` links to a path inside `roots` stay links; any
 * other target (`command:`, `vscode:`, `data:`, `javascript:`, an unknown scheme, a relative one)
 * is shown as its text followed by the target as code, so nothing is hidden and nothing runs on a
 * click. Raw HTML is shown as text.
 *
 * Theia's chat opens every `<a>` of a markdown part through the OpenerService, where `command:`
 * runs an IDE command (its `isTrusted` is not consulted). The fragment is shown by
 * AgentMarkdownPartRenderer (which sanitizes it again); where Theia's own renderer shows it (a
 * reopened chat), Theia 1.74 and later pass it through as an HTML block (one line starting with
 * `<div`) and older ones show it as text. Either way it stays inert: the characters that make markdown
 * links (`[`, `]`), code spans, emphasis and escapes are written as character references.
 */
export function agentMarkdownHtml(markdown: string, roots: readonly string[]): string {
    const env: LinkEnv = { roots };
    const html = renderer.render(markdown, env);
    const body = html.replace(/[[\]\\`*_~\n\r]/g, char => `&#${char.charCodeAt(0)};`);
    return `${FRAGMENT_START}${body}</div>`;
}

/** Whether a markdown part's text is a fragment of {@link agentMarkdownHtml} (or made to look like one: it is sanitized again when shown). */
export function isAgentMarkdownHtml(value: string): boolean {
    return value.startsWith(FRAGMENT_START);
}

type TokenClass = new (type: string, tag: string, nesting: -1 | 0 | 1) => Token;

/** The inline tokens with every refused link or image replaced by text and its target as code. */
function judgeLinks(children: Token[], roots: readonly string[], md: markdownit, TokenClass: TokenClass): Token[] {
    const out: Token[] = [];
    const text = (content: string) => Object.assign(new TokenClass('text', '', 0), { content });
    const code = (target: string) => Object.assign(new TokenClass('code_inline', 'code', 0), { content: shownTarget(md, target), markup: '`' });
    /** Per open link: undefined when it stays a link, else the target to show after its text. */
    const open: (string | undefined)[] = [];
    for (let index = 0; index < children.length; index++) {
        const token = children[index];
        if (token.type === 'link_open') {
            const href = token.attrGet('href') ?? '';
            const target = agentLinkTarget(href, roots);
            if (target !== undefined) {
                token.attrSet('href', target);
                open.push(undefined);
                out.push(token);
            } else if (token.markup === 'autolink' || token.markup === 'linkify') {
                // `<command:x>`: its text is its target; shown once, as code.
                open.push('');
                out.push(code(href));
                while (index + 1 < children.length && children[index + 1].type !== 'link_close') {
                    index++;
                }
            } else {
                open.push(href);
            }
        } else if (token.type === 'link_close') {
            const refused = open.pop();
            if (refused === undefined) {
                out.push(token);
            } else if (refused) {
                out.push(text(' '), code(refused));
            }
        } else if (token.type === 'image') {
            const src = token.attrGet('src') ?? '';
            const target = agentLinkTarget(src, roots);
            if (target !== undefined) {
                token.attrSet('src', target);
                out.push(token);
            } else {
                out.push(text(token.content ? `${token.content} ` : ''), code(src));
            }
        } else {
            out.push(token);
        }
    }
    return out;
}

function shownTarget(md: markdownit, target: string): string {
    const shown = md.normalizeLinkText(target);
    return shown.length > SHOWN_TARGET_CHARS ? `${shown.slice(0, SHOWN_TARGET_CHARS)}…` : shown;
}
