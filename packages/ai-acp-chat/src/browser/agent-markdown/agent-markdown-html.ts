import markdownit = require('@theia/core/shared/markdown-it');
import markdownitemoji = require('@theia/core/shared/markdown-it-emoji');
import URI from '@theia/core/lib/common/uri';
import { FileUri } from '@theia/core/lib/common/file-uri';

type Token = markdownit.Token;

/** How much of a refused target the chat shows (a `data:` URI can be megabytes). */
const SHOWN_TARGET_CHARS = 300;

/** The class of the element the rendered agent markdown is wrapped in. */
const AGENT_MARKDOWN_CLASS = 'acp-agent-markdown';

/** What the link rule reads from markdown-it's `env`: the roots `file:` links must be inside. */
interface LinkEnv {
    readonly roots: readonly string[];
}

/**
 * Markdown as Theia's chat renders it (markdown-it, CommonMark, emoji), but with raw HTML shown as
 * text and every link judged by {@link linkTarget} after parsing: `validateLink` lets every target
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
 * Theia's chat renders markdown with markdown-it (HTML allowed) and opens every `<a>` of the result
 * through the OpenerService, where `command:` runs an IDE command: its `isTrusted` is not consulted.
 * The fragment is one line starting with `<div`, which markdown-it passes through as an HTML block;
 * and the characters that make markdown links (`[`, `]`), code spans, emphasis and escapes are
 * written as character references, so it stays inert even where it ends up inside other markdown.
 */
export function agentMarkdownHtml(markdown: string, roots: readonly string[]): string {
    const env: LinkEnv = { roots };
    const html = renderer.render(markdown, env);
    const body = html.replace(/[[\]\\`*_~\n\r]/g, char => `&#${char.charCodeAt(0)};`);
    return `<div class="${AGENT_MARKDOWN_CLASS}">${body}</div>`;
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
            const target = linkTarget(href, roots);
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
            const target = linkTarget(src, roots);
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

/**
 * The target a link may keep, as the browser and Theia's OpenerService read it; undefined when it
 * must not be a link. `http(s)` anywhere; `file:` with no host, no dot segments and no encoded
 * separator once Theia decodes it, inside one of `roots` (compared as written: the backend is not
 * asked where it lands, so a link through a symbolic link inside the roots is a link; it opens
 * only when clicked).
 */
function linkTarget(href: string, roots: readonly string[]): string | undefined {
    let url: URL;
    try {
        url = new URL(href);
    } catch {
        return undefined; // Relative (`README.md`, `//host/x`, `#x`) or not a URL: it would resolve to something else.
    }
    if (url.protocol === 'http:' || url.protocol === 'https:') {
        return new URI(url.href).scheme === url.protocol.slice(0, -1) ? url.href : undefined;
    }
    if (url.protocol !== 'file:' || url.host || url.username || url.password) {
        return undefined;
    }
    const uri = new URI(url.href);
    const decoded = uri.path.toString();
    if (uri.scheme !== 'file' || uri.authority || /[\\\0]/.test(decoded) || decoded.split('/').some(segment => segment === '.' || segment === '..')) {
        return undefined;
    }
    return roots.some(root => FileUri.create(root).isEqualOrParent(uri.withoutQuery().withoutFragment())) ? url.href : undefined;
}
