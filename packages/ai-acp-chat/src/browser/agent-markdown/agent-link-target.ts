import URI from '@theia/core/lib/common/uri';
import { FileUri } from '@theia/core/lib/common/file-uri';

/**
 * The target a link may keep, as the browser and Theia's OpenerService read it; undefined when it
 * must not be a link. `http(s)` anywhere; `file:` with no host, no dot segments and no encoded
 * separator once Theia decodes it, inside one of `roots` (compared as written: the backend is not
 * asked where it lands, so a link through a symbolic link inside the roots is a link; it opens
 * only when clicked).
 */
export function agentLinkTarget(href: string, roots: readonly string[]): string | undefined {
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
